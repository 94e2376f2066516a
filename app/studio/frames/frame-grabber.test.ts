import { describe, expect, it } from "vitest";
import { fitLongEdge } from "./frame-grabber";

describe("fitLongEdge", () => {
  it("downscales the long edge and keeps the aspect ratio", () => {
    expect(fitLongEdge(1920, 1080, 1024)).toEqual({ width: 1024, height: 576 });
    expect(fitLongEdge(1080, 1920, 1024)).toEqual({ width: 576, height: 1024 });
  });
  it("never upscales and passes through without a limit", () => {
    expect(fitLongEdge(640, 480, 1024)).toEqual({ width: 640, height: 480 });
    expect(fitLongEdge(4000, 3000)).toEqual({ width: 4000, height: 3000 });
  });
});
