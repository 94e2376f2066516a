// What a line or zone does when it fires, besides counting: "capture a photo" saves a full-resolution picture taken
// the moment the event is reported (as auto-capture does), with the event's box; "describe with Moondream" asks the
// rule's question about that moment's frame, once per event, one call in flight per camera (the rest wait their turn),
// and its answer becomes the event's and the photo's description. A failed call leaves the event without one.
import type { DetectionBox } from "../../schemas/photos";
import type { GrabbedFrame } from "../frames/frame-grabber";
import type { EventExtras } from "./event-reporter";
import type { LocalVisionEvent } from "./events";
import type { LocalEventsFrame } from "./local-vision-controller";

/** A line's or zone's name and event actions (as the API returns them). */
export interface RegionRule {
  id: string;
  name: string;
  capturePhoto: boolean;
  describePrompt: string | null;
}

export interface RegionRules {
  lines: readonly RegionRule[];
  zones: readonly RegionRule[];
}

/** The rules of a camera's lines and zones; swappable (a regions controller that already holds them can answer). */
export type RulesFor = (cameraId: string) => Promise<RegionRules>;

/** A full-resolution picture grabbed now, saved later (once its description is known). */
export interface PendingPhoto {
  save(extra: { autoCapture: true; visionEvent: true; detectionQuery: string; detectionBoxes: DetectionBox[]; description?: string }): Promise<{ id: string }>;
}

/** Where a failed Moondream call is reported (the AI tab's failure notices: said once, again after a success). */
export interface CallFailures {
  report(feature: string, error: unknown): void;
  succeeded(): void;
}

export interface EventActionsHost {
  rulesFor: RulesFor;
  /** The camera's picture now at full resolution, or null when it is not the selected camera's (or there is none). */
  grabPhoto(cameraId: string): Promise<PendingPhoto | null>;
  /** The camera's picture now as an AI frame (downscaled JPEG), or null likewise. */
  grabAiFrame(cameraId: string): Promise<GrabbedFrame | null>;
  /** Moondream's answer to the question about the frame (POST /api/moondream/query). */
  describe(imageData: string, question: string): Promise<string>;
  failures: CallFailures;
}

const FEATURE = "Describe with Moondream";

/** What happened, in words: "Door: person crossed in", "Till: person loitering". */
export function eventSummary(event: LocalVisionEvent, name: string): string {
  const what = event.type === "line.crossed" ? `crossed ${event.direction}` : event.type === "zone.entered" ? "entered" : event.type === "zone.exited" ? "exited" : "loitering";
  return `${name}: ${event.label} ${what}`.slice(0, 200);
}

/** The event's box as a photo keeps it: corners, labelled with class and track id ("person #12"). */
export function eventBox(event: LocalVisionEvent): DetectionBox {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const { x_min, y_min, x_max, y_max } = event.box;
  return { x_min: clamp(x_min), y_min: clamp(y_min), x_max: clamp(x_max), y_max: clamp(y_max), label: `${event.label} #${event.trackId}` };
}

function ruleOf(rules: RegionRules, event: LocalVisionEvent): RegionRule | undefined {
  return event.type === "line.crossed" ? rules.lines.find((l) => l.id === event.lineId) : rules.zones.find((z) => z.id === event.zoneId);
}

export class EventActions {
  /** Each camera's describe calls, one after another. */
  private readonly describing = new Map<string, Promise<unknown>>();

  constructor(private readonly host: EventActionsHost) {}

  /** For each event of the frame, its photo and description to wait for (the reporter keeps them in order). */
  readonly forFrame = (frame: LocalEventsFrame): Array<Promise<EventExtras>> => {
    const rules = this.host.rulesFor(frame.cameraId).catch((error: unknown) => {
      console.warn("Local vision: could not read the camera's lines and zones:", error);
      return { lines: [], zones: [] } as RegionRules;
    });
    // One grab of each kind per frame, taken as soon as the rules say one is wanted (the events share the moment).
    let photo: Promise<PendingPhoto | null> | undefined;
    let aiFrame: Promise<GrabbedFrame | null> | undefined;
    const grabPhoto = () => (photo ??= this.host.grabPhoto(frame.cameraId).catch(warnNull("photo")));
    const grabAiFrame = () => (aiFrame ??= this.host.grabAiFrame(frame.cameraId).catch(warnNull("frame")));
    return frame.events.map((event) =>
      rules.then((found) => {
        const rule = ruleOf(found, event);
        if (!rule || (!rule.capturePhoto && !rule.describePrompt)) return {};
        const photoTaken = rule.capturePhoto ? grabPhoto() : null;
        const frameTaken = rule.describePrompt ? grabAiFrame() : null;
        return this.run(frame.cameraId, event, rule, photoTaken, frameTaken);
      }),
    );
  };

  private async run(
    cameraId: string,
    event: LocalVisionEvent,
    rule: RegionRule,
    photoTaken: Promise<PendingPhoto | null> | null,
    frameTaken: Promise<GrabbedFrame | null> | null,
  ): Promise<EventExtras> {
    const description = rule.describePrompt && frameTaken ? await this.describeInTurn(cameraId, frameTaken, rule.describePrompt) : undefined;
    const pending = photoTaken ? await photoTaken : null;
    if (!pending) return description ? { description } : {};
    try {
      const saved = await pending.save({
        autoCapture: true,
        // The event's webhook and alerts carry this photo; without it a detection webhook and alert would repeat them.
        visionEvent: true,
        detectionQuery: eventSummary(event, rule.name),
        detectionBoxes: [eventBox(event)],
        ...(description ? { description } : {}),
      });
      return { photoId: saved.id, ...(description ? { description } : {}) };
    } catch (error) {
      // Log-only like auto-capture's failures: the event still counts and goes out, without its photo.
      console.warn("Local vision: the event's photo was not saved:", error instanceof Error ? error.message : error);
      return description ? { description } : {};
    }
  }

  private describeInTurn(cameraId: string, frameTaken: Promise<GrabbedFrame | null>, question: string): Promise<string | undefined> {
    const previous = this.describing.get(cameraId) ?? Promise.resolve();
    const mine = previous.then(async () => {
      const frame = await frameTaken;
      if (!frame) return undefined;
      try {
        const answer = (await this.host.describe(frame.dataUrl, question)).trim();
        this.host.failures.succeeded();
        return answer || undefined;
      } catch (error) {
        // Free calls used up, key rejected…: said once (failure-notices); the event goes out without a description.
        this.host.failures.report(FEATURE, error);
        return undefined;
      }
    });
    const settled = mine.catch(() => undefined);
    this.describing.set(cameraId, settled);
    // Forget a finished chain, so an idle camera holds nothing.
    void settled.then(() => {
      if (this.describing.get(cameraId) === settled) this.describing.delete(cameraId);
    });
    return mine;
  }
}

const warnNull = (what: string) => (error: unknown) => {
  console.warn(`Local vision: could not grab the event's ${what}:`, error instanceof Error ? error.message : error);
  return null;
};

/** Reads a camera's rules through the API, cached for `ttlMs` (a line drawn or changed since is read again after it). */
export function cachedRules(read: RulesFor, ttlMs = 5000, now: () => number = () => Date.now()): RulesFor & { forget(cameraId: string): void } {
  const cache = new Map<string, { at: number; rules: Promise<RegionRules> }>();
  const lookup = (cameraId: string) => {
    const hit = cache.get(cameraId);
    if (hit && now() - hit.at < ttlMs) return hit.rules;
    const rules = read(cameraId);
    cache.set(cameraId, { at: now(), rules });
    // A failed read is not kept.
    rules.catch(() => cache.get(cameraId)?.rules === rules && cache.delete(cameraId));
    return rules;
  };
  return Object.assign(lookup, { forget: (cameraId: string) => void cache.delete(cameraId) });
}
