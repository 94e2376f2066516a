// Counting people with Moondream: the vision service counts (it returns results only), and with a session the frame
// and its count are stored here as a snapshot, which updates the session's stats.
import type { CountRequest, CountResponse } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { ProblemError } from "../errors";
import type { BlobStore } from "../storage/blob-store";
import { estimatePeople, type FrameCall, type Vision } from "../vision/service";
import { addSnapshot, getSession, otherSourceProblem } from "./service";

export async function countPeople(db: DB, vision: Vision, blobs: BlobStore, call: FrameCall<CountRequest>, signal?: AbortSignal): Promise<CountResponse> {
  const { sessionId } = call.input;
  const userId = call.session.user.id;
  const estimate = await estimatePeople(db, vision, call, signal, async () => {
    if (!sessionId) return;
    // Refuse before spending a call on a frame that could not be stored.
    const session = await getSession(db, userId, sessionId);
    if (!session.isActive) throw new ProblemError(409, "That counting session is finished; start a new one");
    // One source per session: a local session's counts come from the studio's detector, never from a call.
    if (session.source !== "moondream") throw otherSourceProblem(session.source);
  });
  const stored = sessionId
    ? await addSnapshot(db, blobs, userId, sessionId, { image: estimate.image, aiCount: estimate.count, aiCountMin: estimate.min, aiCountMax: estimate.max })
    : null;
  return { count: estimate.count, countMin: estimate.min, countMax: estimate.max, snapshot: stored?.snapshot ?? null, session: stored?.session ?? null };
}
