// Group commit for small writes made by many concurrent workers: items added while one write is in flight
// are written together by the next one, so N outcomes cost one round trip instead of N, without a timer
// (an idle writer writes the first item at once; batches grow only as fast as the database lags).

export interface GroupWriter<T> {
  /** Queues an item; the promise settles when the write that carries it has committed or failed. */
  add(item: T): Promise<void>;
  /** Settles once everything added so far is written (rejects with the first failure, if any). */
  flushed(): Promise<void>;
}

export function groupWriter<T>(write: (items: T[]) => Promise<void>, maxBatch = 1000): GroupWriter<T> {
  let waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let inFlight: Promise<void> | null = null;
  let firstError: unknown = null;
  const settled = new Set<Promise<void>>();

  function pump(): void {
    if (inFlight || waiting.length === 0) return;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    inFlight = write(batch.map((entry) => entry.item)).then(
      () => batch.forEach((entry) => entry.resolve()),
      (error: unknown) => {
        firstError ??= error;
        batch.forEach((entry) => entry.reject(error));
      },
    );
    void inFlight.finally(() => {
      inFlight = null;
      pump();
    });
  }

  return {
    add(item) {
      const done = new Promise<void>((resolve, reject) => waiting.push({ item, resolve, reject }));
      // Tracked for flushed(); the caller may drop the promise, so its rejection is observed here too.
      const tracked = done.catch(() => {});
      settled.add(tracked);
      void tracked.then(() => settled.delete(tracked));
      pump();
      return done;
    },
    async flushed() {
      while (settled.size > 0) await Promise.all([...settled]);
      if (firstError !== null) throw firstError;
    },
  };
}
