// Small pictures of what a line or zone counted, for its inspector ("Last crossings" with who crossed): cropped from
// the very frame the detector saw (a copy kept while the detector has the original), around the track's box.
import type { Box } from "./geometry";

export interface Thumbnailer {
  /** A copy of the frame, kept until its events are known (the detector takes and closes the original). */
  copy(frame: ImageBitmap): Promise<ImageBitmap>;
  /** A small JPEG of `box` (with some of its surroundings) in `frame`, as an object URL. */
  crop(frame: ImageBitmap, box: Box): Promise<string>;
  /** Frees a URL `crop` made. */
  revoke(url: string): void;
}

/** Thumbnails are this tall (CSS pixels ×2, so they stay sharp on a phone). */
const THUMBNAIL_HEIGHT = 96;
/** Around the box, this share of its size on each side: enough to see where the person was. */
const MARGIN = 0.2;

/** The part of the frame a thumbnail of `box` shows, in the frame's pixels. */
export function thumbnailRegion(box: Box, width: number, height: number): { x: number; y: number; width: number; height: number } {
  const marginX = (box.x_max - box.x_min) * MARGIN;
  const marginY = (box.y_max - box.y_min) * MARGIN;
  const x1 = Math.max(0, Math.floor((box.x_min - marginX) * width));
  const y1 = Math.max(0, Math.floor((box.y_min - marginY) * height));
  const x2 = Math.min(width, Math.ceil((box.x_max + marginX) * width));
  const y2 = Math.min(height, Math.ceil((box.y_max + marginY) * height));
  return { x: x1, y: y1, width: Math.max(1, x2 - x1), height: Math.max(1, y2 - y1) };
}

/** The browser's: OffscreenCanvas, JPEG blobs and object URLs. */
export const browserThumbnailer: Thumbnailer = {
  copy: (frame) => createImageBitmap(frame),
  async crop(frame, box) {
    const region = thumbnailRegion(box, frame.width, frame.height);
    const scale = Math.min(1, THUMBNAIL_HEIGHT / region.height);
    const canvas = new OffscreenCanvas(Math.max(1, Math.round(region.width * scale)), Math.max(1, Math.round(region.height * scale)));
    canvas.getContext("2d")?.drawImage(frame, region.x, region.y, region.width, region.height, 0, 0, canvas.width, canvas.height);
    return URL.createObjectURL(await canvas.convertToBlob({ type: "image/jpeg", quality: 0.8 }));
  },
  revoke: (url) => URL.revokeObjectURL(url),
};

/** The key of a happening's thumbnail: its line or zone, frame time and track. */
export function thumbnailKey(regionId: string, at: number, trackId: number): string {
  return `${regionId}:${at}:${trackId}`;
}

/** Thumbnails kept: the inspector shows 8 happenings per line or zone, for a handful of them. */
const MAX_THUMBNAILS = 64;

/** `kept` with `made` added, the oldest beyond MAX_THUMBNAILS dropped and their URLs revoked. */
export function keepLatest(kept: Record<string, string>, made: Record<string, string>, thumbnailer: Pick<Thumbnailer, "revoke">): Record<string, string> {
  const all = Object.entries({ ...kept, ...made });
  const dropped = all.slice(0, Math.max(0, all.length - MAX_THUMBNAILS));
  dropped.forEach(([, url]) => thumbnailer.revoke(url));
  return Object.fromEntries(all.slice(dropped.length));
}
