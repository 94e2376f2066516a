import { beforeEach, describe, expect, it } from "vitest";
import { SessionCache, type CacheEntry } from "./session-cache";

interface Entry extends CacheEntry {
  name: string;
}

let now = 0;
let cache: SessionCache<Entry>;
const entry = (userId: string, name = userId, expiresAt = 1_000_000): Entry => ({ userId, name, expiresAt });

beforeEach(() => {
  now = 0;
  cache = new SessionCache<Entry>({ ttlMs: 5000, maxEntries: 3, now: () => now });
  cache.enable();
});

describe("SessionCache", () => {
  it("serves an entry until its TTL has passed, then asks again", () => {
    expect(cache.set("s1", entry("u1"), cache.generation)).toBe(true);
    now = 4999;
    expect(cache.get("s1")?.name).toBe("u1");
    now = 5000;
    expect(cache.get("s1")).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("never serves a session past its own expiry, however fresh the entry", () => {
    cache.set("s1", entry("u1", "u1", 2000), cache.generation);
    now = 1999;
    expect(cache.get("s1")).toBeDefined();
    now = 2000;
    expect(cache.get("s1")).toBeUndefined();
  });

  it("holds at most maxEntries, dropping the least recently used", () => {
    for (const id of ["a", "b", "c"]) cache.set(id, entry(`u-${id}`), cache.generation);
    expect(cache.get("a")).toBeDefined(); // "b" is now the least recently used
    cache.set("d", entry("u-d"), cache.generation);
    expect(cache.size).toBe(3);
    expect(cache.get("b")).toBeUndefined();
    expect(["a", "c", "d"].map((id) => cache.get(id)?.name)).toEqual(["u-a", "u-c", "u-d"]);
  });

  it("forgets one session on its end, and every session of a user on a change of the user", () => {
    cache.set("s1", entry("u1", "first"), cache.generation);
    cache.set("s2", entry("u1", "second"), cache.generation);
    cache.set("s3", entry("u2"), cache.generation);
    cache.deleteSession("s1");
    expect(cache.get("s1")).toBeUndefined();
    expect(cache.get("s2")?.name).toBe("second");
    cache.deleteUser("u1");
    expect(cache.get("s2")).toBeUndefined();
    expect(cache.get("s3")?.name).toBe("u2");
  });

  it("does not store an answer read before an invalidation (it may predate the change)", () => {
    const before = cache.generation;
    cache.deleteUser("u1"); // a notice arrives while the query is under way
    expect(cache.set("s1", entry("u1", "stale"), before)).toBe(false);
    expect(cache.get("s1")).toBeUndefined();
    expect(cache.set("s1", entry("u1", "fresh"), cache.generation)).toBe(true);
  });

  it("serves and stores nothing while disabled, and starts empty when enabled again", () => {
    cache.set("s1", entry("u1"), cache.generation);
    const during = cache.generation;
    cache.disable();
    expect(cache.get("s1")).toBeUndefined();
    expect(cache.set("s2", entry("u2"), cache.generation)).toBe(false);
    cache.enable();
    expect(cache.size).toBe(0);
    expect(cache.set("s3", entry("u3"), during)).toBe(false); // read before the connection came back
  });

  it("is off with a TTL of 0", () => {
    const off = new SessionCache<Entry>({ ttlMs: 0, maxEntries: 3, now: () => now });
    off.enable();
    expect(off.set("s1", entry("u1"), off.generation)).toBe(false);
    expect(off.get("s1")).toBeUndefined();
  });
});
