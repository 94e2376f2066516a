// The scripted 10-minute scene of the cloud-call benchmark (bench/local-vision-calls.ts): actors walking across a
// shop-door counting line at the local detector's rate, seen through a noisy detector, with the crossings the script
// makes worked out from the actors' true paths (not from what the detector reports), so they can judge the scene.
import { crossingAlong, sideOf, type Point } from "#app/studio/local-vision/geometry";
import type { Direction } from "#app/studio/local-vision/events";
import { DEFAULT_SETTLE_FRAMES, type LineDefinition } from "#app/studio/local-vision/lines";
import { seededRandom } from "#app/image/test-data";
import { boxAt } from "#app/studio/local-vision/synthetic";
import type { Detection } from "#app/studio/local-vision/tracker";

export const SCENE_SECONDS = 600;
/** The WASM detector's measured rate (bench/local-vision-detector.ts): about 5 frames a second. */
export const SCENE_FPS = 5;
export const SCENE_FRAME_MS = 1000 / SCENE_FPS;

/** A door across the middle of the picture, a→b left to right: walking down the picture is `in`, up is `out`. */
export const DOOR: LineDefinition = { id: "door", a: { x: 0.1, y: 0.6 }, b: { x: 0.9, y: 0.6 } };

/** Detector noise, per true object per frame. */
export const NOISE = {
  /** Box position and size jitter: up to ± this fraction of the picture (position) or of the box (size). */
  jitter: 0.004,
  sizeJitter: 0.03,
  /** Not detected this frame. */
  missed: 0.1,
  /** Detected with a low score (0.15–0.45): only the tracker's second pass may use it. */
  weak: 0.15,
  /** A one-frame false positive somewhere in the picture, per frame. */
  falsePositive: 0.03,
} as const;

interface Actor {
  what: string;
  label: string;
  /** Box size in picture fractions. */
  size: { w: number; h: number };
  /** Where the feet (bottom-centre) are at each time, in seconds; straight lines in between. */
  path: Array<[seconds: number, x: number, y: number]>;
  /** Seconds during which the detector does not see it at all (behind a shelf, another person). */
  hidden?: [from: number, to: number];
}

const PERSON = { w: 0.06, h: 0.2 };
const BICYCLE = { w: 0.1, h: 0.16 };
const DOG = { w: 0.06, h: 0.06 };
const CAR = { w: 0.22, h: 0.14 };

const person = (what: string, path: Actor["path"], hidden?: Actor["hidden"]): Actor => ({ what, label: "person", size: PERSON, path, hidden });
/** Crossing straight down (`in`) or up (`out`) at x, starting at t and taking `seconds` from y 0.35 to 0.9 or back. */
const straight = (what: string, t: number, x: number, direction: Direction, seconds: number, label = "person", size = PERSON): Actor => ({
  what,
  label,
  size,
  path:
    direction === "in"
      ? [
          [t, x, 0.35],
          [t + seconds, x, 0.95],
        ]
      : [
          [t, x, 0.95],
          [t + seconds, x, 0.35],
        ],
});

export const ACTORS: Actor[] = [
  straight("a shopper walks in", 10, 0.4, "in", 6),
  straight("a slow shopper walks out", 35, 0.6, "out", 12),
  person("a shopper walks in diagonally", [
    [60, 0.15, 0.3],
    [68, 0.75, 0.95],
  ]),
  // Two people side by side, boxes almost touching, crossing in the same frames.
  straight("a couple walks in together (1)", 85, 0.45, "in", 7),
  straight("a couple walks in together (2)", 85, 0.52, "in", 7),
  straight("someone runs out", 120, 0.3, "out", 2.5),
  straight("a cyclist rides in", 150, 0.7, "in", 2.5, "bicycle", BICYCLE),
  // Stops with the feet on the line for 15 s (the detector's jitter puts them on either side), then walks on.
  person("a shopper stops on the line, then walks in", [
    [180, 0.5, 0.35],
    [184, 0.5, 0.6],
    [199, 0.5, 0.6],
    [203, 0.5, 0.95],
  ]),
  // Out of sight for 1.6 s around the moment of crossing (a shelf between camera and door).
  person(
    "a shopper is hidden while crossing in",
    [
      [230, 0.35, 0.35],
      [236, 0.35, 0.95],
    ],
    [232.6, 234.2],
  ),
  straight("an elderly shopper walks out", 260, 0.55, "out", 14),
  straight("a dog trots in", 290, 0.65, "in", 3, "dog", DOG),
  // In, browses below the line, and comes back out: two crossings by one track.
  person("a shopper walks in and back out", [
    [320, 0.25, 0.35],
    [325, 0.25, 0.85],
    [345, 0.4, 0.85],
    [350, 0.4, 0.35],
  ]),
  person("a shopper walks out diagonally", [
    [380, 0.85, 0.95],
    [388, 0.35, 0.3],
  ]),
  straight("a shopper walks in", 410, 0.5, "in", 5),
  // Two people passing each other on the line in opposite directions.
  straight("passing pair: one walks in", 440, 0.45, "in", 6),
  straight("passing pair: one walks out", 440, 0.55, "out", 6),
  straight("a shopper walks out", 500, 0.7, "out", 5),
  straight("a cyclist rides out", 530, 0.35, "out", 3, "bicycle", BICYCLE),
  straight("a shopper walks in", 570, 0.55, "in", 5),
  // Not crossings: a walk along the line, a crossing of the line's extension beyond its end, a car passing below,
  // a person standing still above the line.
  person("someone walks along the line without crossing", [
    [100, 0.05, 0.5],
    [110, 0.95, 0.5],
  ]),
  person("someone crosses beyond the line's end", [
    [200, 0.95, 0.35],
    [206, 0.95, 0.95],
  ]),
  {
    what: "a car drives past below the line",
    label: "car",
    size: CAR,
    path: [
      [350, 0, 0.97],
      [356, 0.9, 0.97],
    ],
  },
  person("someone waits above the line", [
    [450, 0.2, 0.45],
    [510, 0.22, 0.45],
  ]),
];

export interface ScriptedCrossing {
  actor: string;
  label: string;
  direction: Direction;
  /** When the true feet cross (seconds). */
  at: number;
  /** An event for it is accepted from `from` to `to` (seconds): the approach to the line, until a few seconds after. */
  from: number;
  to: number;
}

/** Where an actor's feet truly are at time t (seconds), or null outside its path. */
function feetAt(actor: Actor, t: number): Point | null {
  const { path } = actor;
  if (t < path[0]![0] || t > path.at(-1)![0]) return null;
  for (let i = 1; i < path.length; i++) {
    const [t0, x0, y0] = path[i - 1]!;
    const [t1, x1, y1] = path[i]!;
    if (t > t1) continue;
    const f = t1 === t0 ? 1 : (t - t0) / (t1 - t0);
    return { x: x0 + (x1 - x0) * f, y: y0 + (y1 - y0) * f };
  }
  return null;
}

/** Seconds an event may lag the true crossing: settle frames, a missed or weak frame or two, an occlusion's end. */
export const LAG_SECONDS = 4;

/**
 * The crossings of `line` the script makes, from the actors' true feet frame by frame: a change of side (standing on
 * the line is neither side) whose move meets the line within the segment.
 */
export function scriptedCrossings(line: LineDefinition = DOOR): ScriptedCrossing[] {
  const crossings: ScriptedCrossing[] = [];
  for (const actor of ACTORS) {
    let settled: { side: -1 | 1; point: Point; at: number } | null = null;
    for (let frame = 0; frame * SCENE_FRAME_MS <= SCENE_SECONDS * 1000; frame++) {
      const t = (frame * SCENE_FRAME_MS) / 1000;
      const feet = feetAt(actor, t);
      if (!feet) continue;
      const side = sideOf(feet, line.a, line.b);
      if (side === 0) continue;
      if (settled && side !== settled.side) {
        const along = crossingAlong(settled.point, feet, line.a, line.b);
        if (along !== null && along >= 0 && along <= 1) {
          const to = Math.max(t, actor.hidden?.[1] ?? 0) + LAG_SECONDS;
          crossings.push({ actor: actor.what, label: actor.label, direction: side === 1 ? "in" : "out", at: t, from: settled.at - 1, to });
        }
      }
      settled = { side, point: feet, at: t };
    }
  }
  return crossings.sort((x, y) => x.at - y.at);
}

/** The detector's output for every frame of the scene: each visible actor through the noise model, plus false positives. */
export function sceneFrames(seed = 19): Detection[][] {
  const next = seededRandom(seed);
  const spread = (amplitude: number) => (next() + next() - 1) * amplitude; // triangular: small errors are common
  const frames: Detection[][] = [];
  for (let frame = 0; frame * SCENE_FRAME_MS < SCENE_SECONDS * 1000; frame++) {
    const t = (frame * SCENE_FRAME_MS) / 1000;
    const detections: Detection[] = [];
    for (const actor of ACTORS) {
      const feet = feetAt(actor, t);
      if (!feet || (actor.hidden && t >= actor.hidden[0] && t < actor.hidden[1])) continue;
      if (next() < NOISE.missed) continue;
      const w = actor.size.w * (1 + spread(NOISE.sizeJitter));
      const h = actor.size.h * (1 + spread(NOISE.sizeJitter));
      const box = boxAt({ x: feet.x + spread(NOISE.jitter), y: feet.y + spread(NOISE.jitter) }, w, h);
      const score = next() < NOISE.weak ? 0.15 + next() * 0.3 : 0.55 + next() * 0.4;
      detections.push({ box, score, label: actor.label });
    }
    if (next() < NOISE.falsePositive) {
      // A flash: a box of a random class anywhere, for one frame.
      const labels = ["person", "person", "bicycle", "dog", "chair"];
      const box = boxAt({ x: 0.05 + next() * 0.9, y: 0.25 + next() * 0.75 }, PERSON.w, PERSON.h);
      detections.push({ box, score: 0.5 + next() * 0.2, label: labels[Math.floor(next() * labels.length)]! });
    }
    frames.push(detections);
  }
  return frames;
}

/** The scene in a sentence, for the report. */
export function sceneSummary(): string {
  const crossings = scriptedCrossings();
  const byLabel = new Map<string, number>();
  for (const crossing of crossings) byLabel.set(crossing.label, (byLabel.get(crossing.label) ?? 0) + 1);
  const labels = [...byLabel].map(([label, n]) => `${n} ${label}`).join(", ");
  return (
    `${SCENE_SECONDS / 60} minutes at ${SCENE_FPS} frames/s (${(SCENE_SECONDS * SCENE_FPS).toLocaleString("en")} frames), one directed line across a shop door ` +
    `(bottom-centre anchor, ${DEFAULT_SETTLE_FRAMES} settle frames), ${ACTORS.length} actors making ${crossings.length} crossings (${labels}; ` +
    `${crossings.filter((c) => c.direction === "in").length} in, ${crossings.filter((c) => c.direction === "out").length} out): ` +
    `walkers, a runner, cyclists and a dog at 2.5–14 s per crossing, a couple crossing side by side, two people passing on the line, ` +
    `one stopping on the line for 15 s, one hidden 1.6 s while crossing, one coming back out; and four that must not count ` +
    `(a walk along the line, a crossing beyond its end, a car passing below, a person waiting). Detector noise: ` +
    `±${NOISE.jitter * 100} % box jitter, ${NOISE.missed * 100} % missed, ${NOISE.weak * 100} % low-confidence boxes, ` +
    `a one-frame false positive in ${NOISE.falsePositive * 100} % of frames. Seeded: the same every run.`
  );
}
