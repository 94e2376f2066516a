// The people-count session viewer's contents as the studio engine holds them: the open session and its snapshots,
// read when it opens, and a snapshot's count correction (the session's figures and the library's card follow).
// Framework-free: the session viewer subscribes to `store`.
import { errorDetail } from "../../lib/api/errors";
import type { peopleCountApi } from "../../lib/api/people-count";
import { parseCountInput, type CountSession, type CountSnapshot } from "../../schemas/people-count";
import type { Notifier } from "../notifier";
import { createStore } from "../store";

export interface SessionViewerState {
  sessionId: string | null;
  /** Null while they load. */
  session: CountSession | null;
  snapshots: CountSnapshot[] | null;
}

export type SessionViewerApi = Pick<typeof peopleCountApi, "session" | "snapshots" | "correct">;

export class SessionViewerController {
  readonly store = createStore<SessionViewerState>({ sessionId: null, session: null, snapshots: null });
  /** Bumped by each open and close: an answer from an earlier one is dropped. */
  private generation = 0;

  constructor(
    private readonly api: SessionViewerApi,
    private readonly library: { upsertSession(session: CountSession): void },
    private readonly notify: Notifier,
  ) {}

  /** Reads the session and its snapshots; the returned function closes it (the viewer's effect cleanup). */
  open(sessionId: string): () => void {
    const generation = ++this.generation;
    const current = () => generation === this.generation;
    this.store.set({ sessionId, session: null, snapshots: null });
    this.api.session(sessionId).then(
      (session) => current() && this.store.set({ session }),
      () => {},
    );
    this.api.snapshots(sessionId).then(
      (snapshots) => current() && this.store.set({ snapshots }),
      () => current() && this.notify.toast({ title: "Error", description: "Failed to fetch snapshots", variant: "destructive" }),
    );
    return () => {
      if (generation !== this.generation) return;
      this.generation++;
      this.store.set({ sessionId: null, session: null, snapshots: null });
    };
  }

  /** Corrects a snapshot's count from what was typed ("5" or "8-12"); false when refused. */
  async correct(snapshot: CountSnapshot, text: string): Promise<boolean> {
    const { sessionId } = this.store.get();
    if (!sessionId) return false;
    const parsed = parseCountInput(text);
    if (!parsed) {
      this.notify.toast({ title: "Invalid input", description: "Please enter a number (e.g., '5') or a range (e.g., '8-12').", variant: "destructive" });
      return false;
    }
    try {
      const updated = await this.api.correct(snapshot.id, { correctedCount: parsed.count, correctedCountMin: parsed.min, correctedCountMax: parsed.max, sessionId });
      this.store.set((state) => ({ snapshots: state.snapshots?.map((s) => (s.id === updated.id ? updated : s)) ?? null }));
      const refreshed = await this.api.session(sessionId);
      if (this.store.get().sessionId === sessionId) this.store.set({ session: refreshed });
      this.library.upsertSession(refreshed);
      this.notify.toast({ title: "Count updated", description: "The count has been corrected" });
      return true;
    } catch (error) {
      this.notify.toast({ title: "Error", description: errorDetail(error, "Failed to update count"), variant: "destructive" });
      return false;
    }
  }
}
