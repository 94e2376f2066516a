// What a fake camera received, in order, with arrival times (the benchmark measures against them).
import { performance } from "node:perf_hooks";

export interface Received<T> {
  command: T;
  /** performance.now() when the camera read the command. */
  at: number;
}

export class Recorder<T> {
  readonly received: Received<T>[] = [];
  private waiters: { test: (command: T) => boolean; resolve: (r: Received<T>) => void }[] = [];

  record(command: T) {
    const entry = { command, at: performance.now() };
    this.received.push(entry);
    this.waiters = this.waiters.filter((waiter) => {
      if (!waiter.test(command)) return true;
      waiter.resolve(entry);
      return false;
    });
  }

  get commands(): T[] {
    return this.received.map((r) => r.command);
  }

  clear() {
    this.received.length = 0;
  }

  /** The next command (already received after `from`, or yet to come) that passes the test. */
  next(test: (command: T) => boolean, from = 0, timeoutMs = 10_000): Promise<Received<T>> {
    const seen = this.received.slice(from).find((r) => test(r.command));
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the fake camera did not receive the expected command within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({ test, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }
}
