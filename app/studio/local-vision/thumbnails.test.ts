// The inspector's thumbnails: the part of the frame each one shows, and the latest 64 kept with the rest revoked.
import { describe, expect, it } from "vitest";
import { keepLatest, thumbnailRegion } from "./thumbnails";

describe("thumbnails", () => {
  it("show the box with a fifth of its size around it, clamped to the frame", () => {
    expect(thumbnailRegion({ x_min: 0.5, y_min: 0.5, x_max: 0.6, y_max: 0.7 }, 1000, 500)).toEqual({ x: 480, y: 230, width: 140, height: 140 });
    // Clamped at the left, top and bottom edges (the right edge may round up a pixel).
    const edge = thumbnailRegion({ x_min: 0, y_min: 0, x_max: 0.1, y_max: 1 }, 1000, 500);
    expect(edge).toMatchObject({ x: 0, y: 0, height: 500 });
    expect(Math.abs(edge.width - 120)).toBeLessThanOrEqual(1);
  });

  it("keep the latest 64, revoking the URLs of those dropped", () => {
    const revoked: string[] = [];
    const kept = Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`k${i}`, `blob:${i}`]));
    const next = keepLatest(kept, { a: "blob:a", b: "blob:b" }, { revoke: (url) => void revoked.push(url) });
    expect(Object.keys(next)).toHaveLength(64);
    expect(revoked).toEqual(["blob:0"]);
    expect(next).toMatchObject({ a: "blob:a", b: "blob:b", k1: "blob:1" });
  });
});
