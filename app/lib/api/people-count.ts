// The browser's calls on people counting: sessions, their snapshots, and the count itself (typed by the catalogue;
// see ./call.ts).
import { api } from "../../schemas/operations";
import { call, type OperationBody } from "./call";

export const peopleCountApi = {
  sessions: () => call(api.peopleCount.sessions),
  session: (id: string) => call(api.peopleCount.session, { params: { id } }),
  create: (body: OperationBody<typeof api.peopleCount.createSession>) => call(api.peopleCount.createSession, { body }),
  finish: (id: string) => call(api.peopleCount.finishSession, { params: { id } }),
  snapshots: (id: string) => call(api.peopleCount.snapshots, { params: { id } }),
  correct: (snapshotId: string, body: OperationBody<typeof api.peopleCount.correctSnapshot>) => call(api.peopleCount.correctSnapshot, { params: { id: snapshotId }, body }),
  /** Stores a frame counted on the device in a local session (no AI call). */
  addSnapshot: (sessionId: string, body: OperationBody<typeof api.peopleCount.addSnapshot>, signal?: AbortSignal) =>
    call(api.peopleCount.addSnapshot, { params: { id: sessionId }, body, signal }),
  /** Counts the frame (an AI call: see ./vision.ts for the signal and priority). */
  count: (body: OperationBody<typeof api.peopleCount.count>, signal?: AbortSignal) => call(api.peopleCount.count, { body, signal }),
};
