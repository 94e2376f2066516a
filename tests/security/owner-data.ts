// One user's real rows of every kind, created through the API, for the security suites to aim at.
import { randomBytes } from "node:crypto";
import { jpegDataUrl } from "../support/images";

export const TINY_CUBE = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n";

/** The bit of tests/support/client's Client this needs (the fuzzer, outside Vitest, brings its own). */
export interface JsonClient {
  get(path: string): Promise<Response>;
  post(path: string, json?: unknown): Promise<Response>;
}

export interface OwnerData {
  /** A unique string inside every name the owner typed: another user's answers must never contain it. */
  marker: string;
  ids: Record<"camera" | "preset" | "photo" | "story" | "session" | "lut" | "alertRule" | "snapshot" | "zone" | "line" | "site" | "window" | "share", string> & {
    monitor?: string;
    ipCamera?: string;
    /** A scheduled report needs SMTP, which the shared app has not: made in the database where a test needs one. */
    schedule?: string;
    savedSearch?: string;
    /** A smart crop of `photo` (a photo edit: made from an outline without asking Moondream). */
    photoEdit?: string;
  };
  webhookSecret: string;
}

async function created(response: Response, what: string): Promise<{ id: string }> {
  if (response.status !== 201) throw new Error(`could not create the ${what}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string };
}

/** `ipCamera` makes the owner an IP camera (until the API can add one without a real camera) for a monitor on it. */
export async function createOwnerData(c: JsonClient, addSnapshot: (sessionId: string) => Promise<string>, ipCamera?: () => Promise<string>): Promise<OwnerData> {
  const marker = `MARK${randomBytes(6).toString("hex")}`;
  const camera = (await created(await c.post("/api/cameras", { name: `Cam ${marker}`, thumbnail: await jpegDataUrl(64, 48) }), "camera")).id;
  const preset = (await created(await c.post("/api/presets", { cameraId: camera, name: `Preset ${marker}`, number: 1 }), "preset")).id;
  const story = (await created(await c.post("/api/stories", { cameraId: camera, title: `Story ${marker}` }), "story")).id;
  const photo = (await created(await c.post("/api/photos", { imageData: await jpegDataUrl(), cameraId: camera, storyId: story }), "photo")).id;
  await created(await c.post(`/api/stories/${story}/captions`, { caption: `Caption ${marker}`, photoId: photo }), "caption");
  const lut = (await created(await c.post("/api/luts", { name: `LUT ${marker}`, lutData: TINY_CUBE }), "LUT")).id;
  const session = (await created(await c.post("/api/people-count/sessions", { cameraId: camera }), "session")).id;
  const alertRule = (await created(await c.post("/api/alerts/rules", { kind: "detection", object: `thing ${marker}`, email: true, sms: false }), "alert rule")).id;
  const square = [
    { x: 0.1, y: 0.1 },
    { x: 0.5, y: 0.1 },
    { x: 0.5, y: 0.5 },
  ];
  const zone = (await created(await c.post(`/api/cameras/${camera}/zones`, { name: `Zone ${marker}`, polygon: square }), "zone")).id;
  const line = (await created(await c.post(`/api/cameras/${camera}/lines`, { name: `Line ${marker}`, a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } }), "line")).id;
  const site = (await created(await c.post("/api/insights/sites", { name: `Site ${marker}`, timeZone: "Europe/London", cameraIds: [camera] }), "site")).id;
  const window = (
    await created(await c.post(`/api/insights/sites/${site}/windows`, { name: `Service ${marker}`, kind: "weekly", weekdays: [0], startsAt: "10:00", endsAt: "11:30" }), "window")
  ).id;
  const share = (await created(await c.post("/api/insights/shares", { name: `Share ${marker}`, kind: "report", view: { siteId: site, period: "last7Days" } }), "share")).id;
  // A local-vision event on the timeline, with the marker in its description.
  const events = await c.post(`/api/cameras/${camera}/vision-events`, {
    events: [
      { type: "line.crossed", lineId: line, direction: "in", trackId: 1, label: "person", at: Date.now(), box: { x: 0.1, y: 0.1, w: 0.2, h: 0.2 }, description: `Event ${marker}` },
    ],
  });
  if (events.status !== 200) throw new Error(`could not post a vision event: ${events.status}`);
  const settings = await c.post("/api/webhooks/settings", { webhookUrl: `https://hooks.example.invalid/${marker}`, webhookEnabled: false, webhookEventType: "simple" });
  if (settings.status !== 200) throw new Error(`could not save webhook settings: ${settings.status}`);
  const webhookSecret = ((await (await c.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
  const snapshot = await addSnapshot(session);
  const savedSearch = (await created(await c.post("/api/saved-searches", { name: `Search ${marker}`, query: { q: `caption ${marker}` } }), "saved search")).id;
  const diamond = { path: "M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z", bbox: { x_min: 0.2, y_min: 0.2, x_max: 0.6, y_max: 0.7 } };
  const photoEdit = (await created(await c.post(`/api/photos/${photo}/edits`, { kind: "crop", object: `thing ${marker}`, aspect: "1:1", ...diamond }), "photo edit")).id;
  // A long interval: the monitor's camera is not reachable, and one failed tick is all it needs to exist.
  const ipCameraId = ipCamera ? await ipCamera() : undefined;
  const monitor = ipCameraId
    ? (await created(await c.post("/api/monitors", { kind: "people_count", cameraId: ipCameraId, name: `Monitor ${marker}`, settings: { intervalSeconds: 3600 } }), "monitor")).id
    : undefined;
  return {
    marker,
    ids: {
      camera,
      preset,
      photo,
      story,
      session,
      lut,
      alertRule,
      snapshot,
      zone,
      line,
      site,
      window,
      share,
      ...(ipCameraId ? { ipCamera: ipCameraId } : {}),
      ...(monitor ? { monitor } : {}),
      savedSearch,
      photoEdit,
    },
    webhookSecret,
  };
}
