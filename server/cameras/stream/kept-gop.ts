// The GOP a camera stream keeps (its init segment and the fragments since the latest keyframe, bounded): a joining
// viewer starts from it at once, and a snapshot decodes it, or waits for the next one, instead of pulling the camera.
import type { KeptGop } from "./snapshot";
import type { Viewer } from "./viewer";

/** Kept up to this size; a camera with a longer GOP makes joiners wait for the next keyframe. */
const GOP_CACHE_BYTES = 16 * 1024 * 1024;

export class GopKeeper {
  /** The init segment of the running pull or relay; undefined until it comes. */
  init: Buffer | undefined;
  private fragments: Buffer[] = [];
  private bytes = 0;
  /** Snapshots waiting for a GOP (`next`). */
  private readonly waiters = new Set<(gop: KeptGop | null) => void>();

  /** A pull or relay (re)starting: nothing is kept until its init segment. */
  clear() {
    this.init = undefined;
    this.dropFragments();
  }

  setInit(init: Buffer) {
    this.init = init;
    this.dropFragments();
  }

  /** Keeps a fragment, from a keyframe on; a keyframe answers the snapshots waiting for a GOP. */
  push(data: Buffer, keyframe: boolean) {
    if (keyframe) this.dropFragments();
    if (keyframe || this.fragments.length) {
      this.fragments.push(data);
      this.bytes += data.length;
      if (this.bytes > GOP_CACHE_BYTES) this.dropFragments();
    }
    if (keyframe) this.settle(this.latest());
  }

  /** Gives a joining viewer the init segment and the kept GOP. */
  replay(viewer: Viewer) {
    if (!this.init) return;
    viewer.init(this.init);
    this.fragments.forEach((fragment, i) => viewer.fragment(fragment, i === 0));
  }

  latest(): KeptGop | null {
    return this.init && this.fragments.length ? { init: this.init, fragments: [...this.fragments] } : null;
  }

  /** The next GOP to be kept; null after `timeoutMs`, or when `settle(null)` says none is coming. */
  next(timeoutMs: number): Promise<KeptGop | null> {
    return new Promise((resolve) => {
      const done = (gop: KeptGop | null) => {
        clearTimeout(timer);
        this.waiters.delete(done);
        resolve(gop);
      };
      const timer = setTimeout(() => done(null), timeoutMs);
      timer.unref();
      this.waiters.add(done);
    });
  }

  settle(gop: KeptGop | null) {
    for (const waiter of [...this.waiters]) waiter(gop);
  }

  private dropFragments() {
    this.fragments = [];
    this.bytes = 0;
  }
}
