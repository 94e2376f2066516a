import { describe, expect, it } from "vitest";
import { boxFromInput, letterbox } from "./letterbox";

describe("letterbox", () => {
  it("fits a 16:9 frame across the whole width of the square and pads above and below evenly", () => {
    expect(letterbox(640, 360, 512)).toEqual({ width: 512, height: 288, left: 0, top: 112 });
  });

  it("fits a portrait frame across the whole height and pads left and right", () => {
    expect(letterbox(480, 640, 512)).toEqual({ width: 384, height: 512, left: 64, top: 0 });
  });

  it("leaves a square frame as it is", () => {
    expect(letterbox(300, 300, 512)).toEqual({ width: 512, height: 512, left: 0, top: 0 });
  });
});

describe("boxFromInput", () => {
  it("maps a box on the padded input back to the frame, keeping a person's shape", () => {
    // A person 100×200 px in a 640×360 frame at (320, 100) is 80×160 input px at (256, 112 + 80) after letterboxing.
    const fit = letterbox(640, 360, 512);
    const box = boxFromInput(fit, 256, 192, 336, 352);
    expect(box.x_min).toBeCloseTo(320 / 640);
    expect(box.y_min).toBeCloseTo(100 / 360);
    expect(box.x_max).toBeCloseTo(420 / 640);
    expect(box.y_max).toBeCloseTo(300 / 360);
  });

  it("clamps a box that spills into the padding to the frame's edge", () => {
    const fit = letterbox(640, 360, 512);
    expect(boxFromInput(fit, -4, 100, 512, 420)).toEqual({ x_min: 0, y_min: 0, x_max: 1, y_max: 1 });
  });

  it("fits a frame into a non-square input (a 640×384 model) on its tighter side", () => {
    expect(letterbox(1280, 720, 640, 384)).toEqual({ width: 640, height: 360, left: 0, top: 12 });
    expect(letterbox(480, 640, 640, 384)).toEqual({ width: 288, height: 384, left: 176, top: 0 });
  });
});
