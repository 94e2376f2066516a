// A line's or zone's event actions with a fake host: the photo (full-resolution grab, the event's box, what
// happened), "describe with Moondream" (one call per event, one in flight per camera), failures that leave the event
// without a description, and the cached rules lookup.
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "../../lib/api/errors";
import { AiFailureNotices } from "../ai/failure-notices";
import { VISION_PROBLEM } from "../../schemas/vision";
import { EventActions, cachedRules, eventSummary, type EventActionsHost, type RegionRules } from "./event-actions";
import type { LineCrossedEvent, LocalVisionEvent } from "./events";

const DOOR = "11111111-1111-4111-8111-111111111111";
const TILL = "33333333-3333-4333-8333-333333333333";

function crossing(trackId: number): LineCrossedEvent {
  return { type: "line.crossed", lineId: DOOR, direction: "in", trackId, label: "person", at: 1000, box: { x_min: 0.1, y_min: 0.2, x_max: 0.4, y_max: 0.7 } };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function harness(rules: RegionRules, options: { selected?: string } = {}) {
  const selected = options.selected ?? "cam";
  const saved: unknown[] = [];
  const describes: Array<{ imageData: string; question: string; answer: ReturnType<typeof deferred<string>> }> = [];
  const grabs = { photo: 0, ai: 0 };
  const failures = { report: vi.fn(), succeeded: vi.fn() };
  const host: EventActionsHost = {
    rulesFor: async () => rules,
    grabPhoto: async (cameraId) => {
      if (cameraId !== selected) return null;
      grabs.photo++;
      return { save: async (extra) => (saved.push(extra), { id: `photo-${saved.length}` }) };
    },
    grabAiFrame: async (cameraId) => {
      if (cameraId !== selected) return null;
      grabs.ai++;
      return { dataUrl: `data:image/jpeg;base64,frame${grabs.ai}`, width: 640, height: 360 };
    },
    describe: (imageData, question) => {
      const answer = deferred<string>();
      describes.push({ imageData, question, answer });
      return answer.promise;
    },
    failures,
  };
  return { actions: new EventActions(host), saved, describes, grabs, failures };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const door = (capturePhoto: boolean, describePrompt: string | null): RegionRules => ({ lines: [{ id: DOOR, name: "Door", capturePhoto, describePrompt }], zones: [] });

describe("EventActions", () => {
  it("saves the event's photo with its box and what happened, described by Moondream, and reports both", async () => {
    const h = harness(door(true, "Describe the person in the box."));
    const [extras] = h.actions.forFrame({ cameraId: "cam", at: 1000, events: [crossing(7)], tracks: [] });
    await settle();
    expect(h.describes.map((d) => [d.imageData, d.question])).toEqual([["data:image/jpeg;base64,frame1", "Describe the person in the box."]]);
    h.describes[0]!.answer.resolve("  A woman in a red coat.  ");
    expect(await extras).toEqual({ photoId: "photo-1", description: "A woman in a red coat." });
    expect(h.saved).toEqual([
      {
        autoCapture: true,
        visionEvent: true,
        detectionQuery: "Door: person crossed in",
        detectionBoxes: [{ x_min: 0.1, y_min: 0.2, x_max: 0.4, y_max: 0.7, label: "person #7" }],
        description: "A woman in a red coat.",
      },
    ]);
    expect(h.failures.succeeded).toHaveBeenCalled();
  });

  it("does nothing for a rule without actions, or an event on a line it does not know", async () => {
    const h = harness(door(false, null));
    const other: LocalVisionEvent = { type: "zone.entered", zoneId: TILL, trackId: 2, label: "person", at: 1, box: { x_min: 0, y_min: 0, x_max: 1, y_max: 1 } };
    expect(await Promise.all(h.actions.forFrame({ cameraId: "cam", at: 1, events: [crossing(1), other], tracks: [] }))).toEqual([{}, {}]);
    expect(h.grabs).toEqual({ photo: 0, ai: 0 });
    expect(h.describes).toHaveLength(0);
  });

  it("grabs once per frame for all its events, and keeps one describe call in flight per camera, each event getting its own", async () => {
    const h = harness(door(false, "Who is it?"));
    const first = h.actions.forFrame({ cameraId: "cam", at: 1, events: [crossing(1), crossing(2)], tracks: [] });
    const second = h.actions.forFrame({ cameraId: "cam", at: 2, events: [crossing(3)], tracks: [] });
    await settle();
    expect(h.grabs.ai).toBe(2);
    expect(h.describes).toHaveLength(1);
    h.describes[0]!.answer.resolve("one");
    await settle();
    expect(h.describes).toHaveLength(2);
    expect(h.describes[1]!.imageData).toBe(h.describes[0]!.imageData); // same frame, same moment
    h.describes[1]!.answer.resolve("two");
    await settle();
    expect(h.describes).toHaveLength(3);
    expect(h.describes[2]!.imageData).toBe("data:image/jpeg;base64,frame2");
    h.describes[2]!.answer.resolve("three");
    expect(await Promise.all([...first, ...second])).toEqual([{ description: "one" }, { description: "two" }, { description: "three" }]);
  });

  it("sends the event without a description when the call fails (free calls used up), saying so through the failure notices", async () => {
    const h = harness(door(true, "Who is it?"));
    const [extras] = h.actions.forFrame({ cameraId: "cam", at: 1, events: [crossing(1)], tracks: [] });
    await settle();
    const spent = new ApiError(402, JSON.stringify({ type: VISION_PROBLEM.freeCallsUsedUp, detail: "used up" }), "Payment Required");
    h.describes[0]!.answer.reject(spent);
    expect(await extras).toEqual({ photoId: "photo-1" });
    expect(h.saved[0]).not.toHaveProperty("description");
    expect(h.failures.report).toHaveBeenCalledWith("Describe with Moondream", spent);
  });

  it("says a key rejected once however many events' calls fail, and each event still gets its call", async () => {
    const toasts: unknown[] = [];
    const h = harness(door(false, "Who is it?"));
    const notices = new AiFailureNotices({ toast: (t) => toasts.push(t), alert: () => {} });
    const actions = new EventActions({
      rulesFor: async () => door(false, "Who is it?"),
      grabPhoto: async () => null,
      grabAiFrame: async () => ({ dataUrl: "data:image/jpeg;base64,x", width: 1, height: 1 }),
      describe: async () => {
        h.describes.push({ imageData: "", question: "", answer: deferred<string>() });
        throw new ApiError(400, JSON.stringify({ type: VISION_PROBLEM.keyRejected, detail: "Moondream rejected your API key." }), "Bad Request");
      },
      failures: notices,
    });
    const extras = actions.forFrame({ cameraId: "cam", at: 1, events: [crossing(1), crossing(2), crossing(3)], tracks: [] });
    expect(await Promise.all(extras)).toEqual([{}, {}, {}]);
    expect(h.describes).toHaveLength(3);
    expect(toasts).toEqual([expect.objectContaining({ title: "API key rejected" })]);
  });

  it("takes no photo and asks nothing when the event's camera is no longer the one shown", async () => {
    const h = harness(door(true, "Who is it?"), { selected: "other" });
    expect(await Promise.all(h.actions.forFrame({ cameraId: "cam", at: 1, events: [crossing(1)], tracks: [] }))).toEqual([{}]);
    expect(h.describes).toHaveLength(0);
    expect(h.saved).toHaveLength(0);
  });

  it("says what happened for each kind of event", () => {
    const base = { trackId: 1, label: "car", at: 1, box: { x_min: 0, y_min: 0, x_max: 1, y_max: 1 }, zoneId: TILL };
    expect(eventSummary({ ...crossing(1), direction: "out" }, "Door")).toBe("Door: person crossed out");
    expect(eventSummary({ type: "zone.entered", ...base }, "Lot")).toBe("Lot: car entered");
    expect(eventSummary({ type: "zone.exited", dwellSeconds: 3, ...base }, "Lot")).toBe("Lot: car exited");
    expect(eventSummary({ type: "zone.loitering", dwellSeconds: 30, ...base }, "Lot")).toBe("Lot: car loitering");
  });
});

describe("cachedRules", () => {
  it("reads a camera's rules once per period, again after it, and does not keep a failed read", async () => {
    let now = 0;
    let fail = true;
    const read = vi.fn(async (cameraId: string) => {
      if (fail) throw new Error("offline");
      return { lines: [{ id: cameraId, name: "L", capturePhoto: false, describePrompt: null }], zones: [] };
    });
    const rules = cachedRules(read, 5000, () => now);
    await expect(rules("a")).rejects.toThrow("offline");
    fail = false;
    await rules("a");
    await rules("a");
    expect(read).toHaveBeenCalledTimes(2);
    now = 5000;
    await rules("a");
    await rules("b");
    expect(read).toHaveBeenCalledTimes(4);
    rules.forget("b");
    await rules("b");
    expect(read).toHaveBeenCalledTimes(5);
  });
});
