// The session viewer's controller against an in-memory server: the session and its snapshots load, a correction
// updates the snapshot, the session's figures and the library's card, a bad count or a refusal is said in a toast,
// and an answer for a session no longer open is dropped.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { CountSession, CountSnapshot } from "../../schemas/people-count";
import type { Notifier } from "../notifier";
import { SessionViewerController, type SessionViewerApi } from "./session-viewer-controller";

const session = (id: string, averageCount: number) => ({ id, title: `Session ${id}`, averageCount }) as CountSession;
const snapshot = (id: string, correctedCount: number | null = null) => ({ id, aiCount: 4, correctedCount }) as CountSnapshot;

function harness() {
  let refuse: ApiError | null = null;
  const toasts: string[] = [];
  const upserted: CountSession[] = [];
  const corrections: unknown[] = [];
  const pending: Array<() => void> = [];
  let holdSnapshots = false;
  let average = 4;
  const api = {
    session: async (id: string) => session(id, average),
    snapshots: (id: string) =>
      new Promise<CountSnapshot[]>((resolve) => (holdSnapshots ? pending.push(() => resolve([snapshot(`${id}-late`)])) : resolve([snapshot(`${id}-1`), snapshot(`${id}-2`)]))),
    correct: async (id: string, body: { correctedCount: number }) => {
      if (refuse) throw refuse;
      corrections.push(body);
      average = 6;
      return snapshot(id, body.correctedCount);
    },
  } as unknown as SessionViewerApi;
  const notify: Notifier = { toast: (t) => void toasts.push(`${t.title}: ${t.description}`), alert: () => undefined };
  const viewer = new SessionViewerController(api, { upsertSession: (s) => void upserted.push(s) }, notify);
  return { viewer, toasts, upserted, corrections, pending, hold: () => (holdSnapshots = true), refuseWith: (e: ApiError) => (refuse = e) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("SessionViewerController", () => {
  it("loads the session and its snapshots, and corrects a count (a range too)", async () => {
    const { viewer, toasts, upserted, corrections } = harness();
    viewer.open("s1");
    await settle();
    expect(viewer.store.get().session?.averageCount).toBe(4);
    expect(viewer.store.get().snapshots?.map((s) => s.id)).toEqual(["s1-1", "s1-2"]);
    expect(await viewer.correct(snapshot("s1-2"), "8-12")).toBe(true);
    expect(corrections).toEqual([{ correctedCount: 10, correctedCountMin: 8, correctedCountMax: 12, sessionId: "s1" }]);
    expect(viewer.store.get().snapshots?.map((s) => s.correctedCount)).toEqual([null, 10]);
    expect(viewer.store.get().session?.averageCount).toBe(6);
    expect(upserted.map((s) => s.averageCount)).toEqual([6]);
    expect(toasts).toEqual(["Count updated: The count has been corrected"]);
  });

  it("refuses a count that is no number or range, and says a refused correction", async () => {
    const { viewer, toasts, corrections, refuseWith } = harness();
    viewer.open("s1");
    await settle();
    expect(await viewer.correct(snapshot("s1-1"), "lots")).toBe(false);
    refuseWith(new ApiError(404, JSON.stringify({ detail: "Snapshot not found" }), ""));
    expect(await viewer.correct(snapshot("s1-1"), "5")).toBe(false);
    expect(corrections).toEqual([]);
    expect(toasts).toEqual(["Invalid input: Please enter a number (e.g., '5') or a range (e.g., '8-12').", "Error: Snapshot not found"]);
    expect(viewer.store.get().snapshots?.map((s) => s.correctedCount)).toEqual([null, null]);
  });

  it("drops an answer for a session no longer open", async () => {
    const { viewer, pending, hold } = harness();
    hold();
    const close = viewer.open("s1");
    close();
    viewer.open("s2");
    pending[0]!();
    await settle();
    expect(viewer.store.get().sessionId).toBe("s2");
    expect(viewer.store.get().snapshots).toBeNull();
  });
});
