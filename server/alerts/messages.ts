// How an alert reads: the facts of each alert kind (schemas in app/schemas/events.ts) worded for e-mail and SMS.
import type { AlertEventData, AlertEventKind, AlertMessage } from "#app/schemas/events";
import { linkOrigin } from "../photos/links";

const when = (iso: string) => new Date(iso).toUTCString();
const cameraOf = (name: string | null) => name ?? "an unnamed camera";

const visionWording =
  (what: string) =>
  ({ name, label, cameraName, at, direction, dwellSeconds, description, photoUrl, url }: AlertEventData<"line_crossed">): AlertMessage => {
    const detail = [direction ? `direction ${direction}` : null, dwellSeconds === undefined ? null : `after ${Math.round(dwellSeconds)} s`].filter(Boolean).join(", ");
    const happened = `${label} ${what} "${name}" on ${cameraName}${detail ? ` (${detail})` : ""}`;
    return {
      subject: `Framewise alert: ${label} ${what} ${name}`,
      text: [
        `Framewise: a ${happened} at ${when(at)}.`,
        description ? `Moondream: ${description}` : null,
        photoUrl ? `Photo (link valid for 7 days): ${photoUrl}` : null,
        `Open the studio: ${url}`,
        `You get this because of an alert rule in the Automate tab of ${linkOrigin()}/studio.`,
      ]
        .filter(Boolean)
        .join("\n\n"),
      // The SMS links the photo when there is one (it shows what happened), else the studio.
      sms: `Framewise: a ${happened} at ${when(at)}.${description ? ` ${description.slice(0, 200)}` : ""} ${photoUrl ?? url}`,
    };
  };

const wording: { [Kind in AlertEventKind]: (data: AlertEventData<Kind>) => AlertMessage } = {
  detection: ({ object, cameraName, at, boxCount, photoUrl }) => {
    const camera = cameraOf(cameraName);
    return {
      subject: `Framewise alert: ${object} detected on ${camera}`,
      text: `Framewise saw ${object} (${boxCount} ${boxCount === 1 ? "box" : "boxes"}) on ${camera} at ${when(at)}.\n\nPhoto (link valid for 7 days): ${photoUrl}\n\nYou get this because of an alert rule in the Automate tab of ${linkOrigin()}/studio.`,
      sms: `Framewise: ${object} detected on ${camera} at ${when(at)}. ${photoUrl}`,
    };
  },
  people_count: ({ count, cameraName, sessionTitle, at, url }) => {
    const camera = cameraOf(cameraName);
    return {
      subject: `Framewise alert: ${count} people on ${camera}`,
      text: `Framewise counted ${count} people on ${camera} at ${when(at)} (session "${sessionTitle}"), more than your alert limit.\n\nOpen the studio: ${url}`,
      sms: `Framewise: ${count} people counted on ${camera} at ${when(at)}. ${url}`,
    };
  },
  line_crossed: visionWording("crossed"),
  zone_entered: visionWording("entered"),
  zone_exited: visionWording("left"),
  zone_loitering: visionWording("is loitering in"),
  search_matched: ({ name, cameraName, at, photoUrl }) => {
    const camera = cameraOf(cameraName);
    return {
      subject: `Framewise: a new photo matches "${name}"`,
      text: `A photo taken on ${camera} at ${when(at)} matches your saved search "${name}".\n\nPhoto (link valid for 7 days): ${photoUrl}\n\nYou get this because of a saved search in the Photos tab of ${linkOrigin()}/studio.`,
      sms: `Framewise: a new photo matches "${name}" (${camera}, ${when(at)}). ${photoUrl}`,
    };
  },
};

/** The message an alert of this kind sends, from the facts its schema names. */
export function alertMessage<Kind extends AlertEventKind>(kind: Kind, data: AlertEventData<Kind>): AlertMessage {
  return (wording[kind] as (data: AlertEventData<Kind>) => AlertMessage)(data);
}
