// Looking closer where motion was (the accuracy issue's region detection): a small, distant person is a few pixels in
// the whole frame once it is scaled into the model's input, so a small moving region also gets a run of its own on a
// crop around it, enlarged towards the model's input shape. Bounded: at most MAX_CROPS crops a frame.
import type { LocalDetection } from "#app/studio/local-vision/detector-types";
import type { RgbPicture } from "../frame-detector";
import type { Region } from "./types";

/** A region covering less than this share of the frame gets a crop of its own; a larger one the whole frame sees well. */
const SMALL_REGION = 1 / 3;
/** At most this many crops a frame (each is another run of the model). */
export const MAX_CROPS = 2;
/** A crop takes this much of the region's surroundings: the whole person around the part that moved. */
const CONTEXT = 2;
/** How much a crop must enlarge its part of the frame (against the whole frame's run) to be run at all. */
const MIN_ZOOM = 2;
/** The smallest crop side, in the frame's pixels: a model finds nothing in a postage stamp blown up. */
const MIN_CROP_SIDE = 160;
/** A detection this close (fraction of the crop) to a crop edge inside the frame was cut: the whole frame's run has it. */
const CUT_EDGE = 0.02;

/** A rectangle of the frame, in its pixels. */
export interface Crop {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The crops for a frame's motion regions (largest first, as motion gives them): the small ones, each centred on its
 * region, `CONTEXT` times its size, widened to the model input's aspect and at least MIN_CROP_SIDE, kept inside the frame.
 */
export function planCrops(frameWidth: number, frameHeight: number, regions: readonly Region[], inputAspect: number): Crop[] {
  const crops: Crop[] = [];
  for (const region of regions) {
    if (crops.length >= MAX_CROPS) break;
    if (region.w * region.h >= SMALL_REGION || region.w <= 0 || region.h <= 0) continue;
    let width = Math.max(region.w * frameWidth * CONTEXT, MIN_CROP_SIDE);
    let height = Math.max(region.h * frameHeight * CONTEXT, MIN_CROP_SIDE);
    if (width / height < inputAspect) width = height * inputAspect;
    else height = width / inputAspect;
    width = Math.min(frameWidth, Math.round(width));
    height = Math.min(frameHeight, Math.round(height));
    // A crop must enlarge what it holds at least twice over to be worth another run of the model: a larger one the
    // whole frame's run already sees about as well (a person walking near the camera).
    if (width > frameWidth / MIN_ZOOM || height > frameHeight / MIN_ZOOM) continue;
    const centreX = (region.x + region.w / 2) * frameWidth;
    const centreY = (region.y + region.h / 2) * frameHeight;
    const left = Math.round(Math.min(frameWidth - width, Math.max(0, centreX - width / 2)));
    const top = Math.round(Math.min(frameHeight - height, Math.max(0, centreY - height / 2)));
    crops.push({ left, top, width, height });
  }
  return crops;
}

/** The crop's pixels as a picture of its own (rows copied out of the frame's packed RGB). */
export function cropPicture(frame: RgbPicture, crop: Crop): RgbPicture {
  const rgb = new Uint8Array(crop.width * crop.height * 3);
  const rowBytes = crop.width * 3;
  for (let row = 0; row < crop.height; row++) {
    const start = ((crop.top + row) * frame.width + crop.left) * 3;
    rgb.set(frame.rgb.subarray(start, start + rowBytes), row * rowBytes);
  }
  return { width: crop.width, height: crop.height, rgb };
}

/**
 * A crop's detections (fractions of the crop) as fractions of the frame. Those touching a crop edge that lies inside
 * the frame are dropped: they are people cut in half by the crop, whom the whole frame's run sees whole.
 */
export function detectionsInFrame(detections: readonly LocalDetection[], crop: Crop, frameWidth: number, frameHeight: number): LocalDetection[] {
  const cutLeft = crop.left > 0;
  const cutTop = crop.top > 0;
  const cutRight = crop.left + crop.width < frameWidth;
  const cutBottom = crop.top + crop.height < frameHeight;
  return detections
    .filter(
      ({ box }) => !(cutLeft && box.x_min < CUT_EDGE) && !(cutTop && box.y_min < CUT_EDGE) && !(cutRight && box.x_max > 1 - CUT_EDGE) && !(cutBottom && box.y_max > 1 - CUT_EDGE),
    )
    .map((detection) => ({
      ...detection,
      box: {
        x_min: (crop.left + detection.box.x_min * crop.width) / frameWidth,
        y_min: (crop.top + detection.box.y_min * crop.height) / frameHeight,
        x_max: (crop.left + detection.box.x_max * crop.width) / frameWidth,
        y_max: (crop.top + detection.box.y_max * crop.height) / frameHeight,
      },
    }));
}
