// A simulated pan/tilt/zoom head shared by the fake PTZ cameras: the commands each fake receives over its
// own protocol set velocities, the angles integrate them over the head's clock (injectable, so a test can run
// simulated time), and `render` draws what the camera sees — a coloured subject at a fixed world angle moves
// across the picture as the head turns and grows as it zooms. Modelled on a PTZOptics 20X at the wide end:
// ~2°/s per speed unit (1–24), 60° horizontal field of view, 16:9.
import { performance } from "node:perf_hooks";

export const DEG_PER_SPEED_UNIT = 2;
export const WIDE_HFOV = 60;
const ASPECT = 16 / 9;
const MAX_ZOOM = 20;
/** Zoom rate at full lens speed: the factor grows e-fold in this many seconds. */
const ZOOM_SECONDS_PER_E = 1.5;

export interface RGBFrame {
  width: number;
  height: number;
  /** Packed RGB, row by row. */
  data: Uint8Array;
}

export interface WorldObject {
  /** World angles of the centre (degrees; pan right, tilt up positive) and the angular size. */
  pan: number;
  tilt: number;
  widthDeg: number;
  heightDeg: number;
  colour: [number, number, number];
  visible: boolean;
  /** A picture drawn over the object's rectangle (e.g. a real person for a real detector); the colour otherwise. */
  image?: RGBFrame;
}

export class SimulatedHead {
  pan = 0;
  tilt = 0;
  zoom = 1;
  /** Commanded speeds in units (pan −24…24, tilt −20…20) and zoom as a signed fraction of full lens speed. */
  velocity = { pan: 0, tilt: 0, zoom: 0 };
  readonly presets = new Map<number, { pan: number; tilt: number; zoom: number }>();
  /** The subject, and distractors in other colours. */
  readonly objects: WorldObject[] = [];
  private last: number;

  constructor(private readonly clock: () => number = () => performance.now()) {
    this.last = clock();
  }

  get hfov() {
    return WIDE_HFOV / this.zoom;
  }

  get vfov() {
    return this.hfov / ASPECT;
  }

  /** Brings the angles up to the clock's now under the velocities commanded so far. */
  sync() {
    const now = this.clock();
    const seconds = Math.max(0, now - this.last) / 1000;
    this.last = now;
    this.pan += this.velocity.pan * DEG_PER_SPEED_UNIT * seconds;
    this.tilt += this.velocity.tilt * DEG_PER_SPEED_UNIT * seconds;
    this.zoom = Math.max(1, Math.min(MAX_ZOOM, this.zoom * Math.exp((this.velocity.zoom * seconds) / ZOOM_SECONDS_PER_E)));
  }

  drive(pan: number, tilt: number) {
    this.sync();
    this.velocity.pan = pan;
    this.velocity.tilt = tilt;
  }

  /** Zoom at a signed fraction (−1…1) of full lens speed; 0 stops. */
  zoomAt(fraction: number) {
    this.sync();
    this.velocity.zoom = fraction;
  }

  home() {
    this.sync();
    Object.assign(this, { pan: 0, tilt: 0 });
    this.velocity.pan = this.velocity.tilt = 0;
  }

  savePreset(n: number) {
    this.sync();
    this.presets.set(n, { pan: this.pan, tilt: this.tilt, zoom: this.zoom });
  }

  /** Arrives at once: the follower only cares that it went back. */
  recallPreset(n: number) {
    this.sync();
    const preset = this.presets.get(n);
    if (!preset) return;
    Object.assign(this, preset);
    this.velocity = { pan: 0, tilt: 0, zoom: 0 };
  }

  /** Where a world angle appears in the picture (0–1, y down). */
  project(pan: number, tilt: number): { x: number; y: number } {
    this.sync();
    return { x: 0.5 + (pan - this.pan) / this.hfov, y: 0.5 - (tilt - this.tilt) / this.vfov };
  }

  /** The picture now: a grey background with each visible object as a filled rectangle. */
  render(width = 160, height = 90): RGBFrame {
    this.sync();
    const data = new Uint8Array(width * height * 3).fill(96);
    for (const object of this.objects) {
      if (!object.visible) continue;
      const c = this.project(object.pan, object.tilt);
      const w = object.widthDeg / this.hfov;
      const h = object.heightDeg / this.vfov;
      const x0 = Math.max(0, Math.round((c.x - w / 2) * width));
      const x1 = Math.min(width, Math.round((c.x + w / 2) * width));
      const y0 = Math.max(0, Math.round((c.y - h / 2) * height));
      const y1 = Math.min(height, Math.round((c.y + h / 2) * height));
      const image = object.image;
      const left = (c.x - w / 2) * width;
      const top = (c.y - h / 2) * height;
      for (let y = y0; y < y1; y++) {
        for (let x = x0; x < x1; x++) {
          if (!image) {
            data.set(object.colour, (y * width + x) * 3);
            continue;
          }
          // Nearest pixel of the picture scaled to the rectangle.
          const ix = Math.min(image.width - 1, Math.floor(((x - left) / (w * width)) * image.width));
          const iy = Math.min(image.height - 1, Math.floor(((y - top) / (h * height)) * image.height));
          const from = (iy * image.width + ix) * 3;
          data.set(image.data.subarray(from, from + 3), (y * width + x) * 3);
        }
      }
    }
    return { width, height, data };
  }
}

/** The closed loop's detector: the bounding box (normalised) of the pixels close to `colour`, or null. */
export function findColour(frame: RGBFrame, colour: [number, number, number], tolerance = 40) {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -1, -1];
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const i = (y * frame.width + x) * 3;
      if (Math.abs(frame.data[i]! - colour[0]) + Math.abs(frame.data[i + 1]! - colour[1]) + Math.abs(frame.data[i + 2]! - colour[2]) > tolerance) continue;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
  }
  if (maxX < 0) return null;
  return { x_min: minX / frame.width, y_min: minY / frame.height, x_max: (maxX + 1) / frame.width, y_max: (maxY + 1) / frame.height };
}
