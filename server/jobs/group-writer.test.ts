import { describe, expect, it, vi } from "vitest";
import { groupWriter } from "./group-writer";

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe("groupWriter", () => {
  it("writes the first item at once and everything added during a write in the next one", async () => {
    const batches: number[][] = [];
    const gates: ReturnType<typeof deferred>[] = [];
    const writer = groupWriter<number>((items) => {
      batches.push(items);
      const gate = deferred();
      gates.push(gate);
      return gate.promise;
    });
    const first = writer.add(1);
    const rest = [2, 3, 4].map((n) => writer.add(n));
    expect(batches).toEqual([[1]]);
    gates[0]!.resolve();
    await first;
    await vi.waitFor(() => expect(batches).toEqual([[1], [2, 3, 4]]));
    gates[1]!.resolve();
    await Promise.all(rest);
    await writer.flushed();
  });

  it("caps a group at maxBatch", async () => {
    const batches: number[][] = [];
    const writer = groupWriter<number>(async (items) => void batches.push(items), 2);
    await Promise.all([1, 2, 3, 4, 5].map((n) => writer.add(n)));
    expect(batches.flat()).toEqual([1, 2, 3, 4, 5]);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(2);
  });

  it("rejects the items of a failed write, and flushed() reports it", async () => {
    const writer = groupWriter<number>(async (items) => {
      if (items.includes(2)) throw new Error("database went away");
    });
    const one = writer.add(1);
    const two = writer.add(2);
    await expect(one).resolves.toBeUndefined();
    await expect(two).rejects.toThrow("database went away");
    await expect(writer.flushed()).rejects.toThrow("database went away");
  });
});
