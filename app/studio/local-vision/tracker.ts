// A small multi-object tracker (ByteTrack's two passes over IoU/centre matching with a damped constant-velocity
// motion model) that turns per-frame detections into tracks with stable ids, so lines and zones count objects, not
// boxes. Time is the frames' timestamps, not a frame count: the detector's rate varies from 2 to 30 frames a second.
import { bestPairs, type Candidate } from "./assignment";
import { boxHeight, boxWidth, iou, type Box } from "./geometry";

export interface Detection {
  /** Normalised 0–1 picture coordinates. */
  box: Box;
  /** The detector's confidence, 0–1. */
  score: number;
  /** The class, e.g. "person". Tracks only ever match detections of their own class. */
  label: string;
}

export interface Track {
  id: number;
  label: string;
  /** The last matched detection's box; while missed, where the motion model expects the object. */
  box: Box;
  score: number;
  /** Seen in `confirmHits` frames in a row: only confirmed tracks are counted by lines and zones. */
  confirmed: boolean;
  /** Frames this track matched a detection in. */
  hits: number;
  /** Frames in a row without a matching detection (0: seen in the latest frame); since `lastSeenAt`. */
  misses: number;
  /** Frames since the track began. */
  age: number;
  /** Movement of the box centre, in picture widths/heights per second. */
  velocity: { x: number; y: number };
  firstSeenAt: number;
  lastSeenAt: number;
}

export interface TrackerOptions {
  /** Detections at or above this score take part in the first pass and may start tracks (ByteTrack's high threshold). */
  highScore: number;
  /**
   * `highScore` for the classes measured on real footage. People: 0.3 for the built-in CenterNet, on the shared real
   * pictures: at 0.5 it started tracks for a quarter of the people in the photos and never for two of the six on the
   * indoor clip; at 0.3 per-frame precision is still 0.86–0.88, and a false box rarely lasts the `confirmHits` frames
   * a track needs to count. Other classes keep 0.5 until measured (at 0.3 a panning picture grows cups that cross lines).
   */
  highScoreByLabel: Readonly<Record<string, number>>;
  /**
   * Detections between this and `highScore` may only continue confirmed tracks (ByteTrack's second pass); below it
   * they are ignored. A weak detector scores a person standing still 0.25–0.33 frame after frame: these keep the
   * track, and its id, but never start one. The detector is asked for boxes down to this score (TRACKER_MIN_SCORE).
   */
  lowScore: number;
  /** Least IoU between a track's predicted box and a detection to match in the first pass. */
  matchIou: number;
  /** Least IoU in the second pass: stricter, as low scores are often a neighbour's partial box. */
  lowMatchIou: number;
  /**
   * When boxes do not overlap enough (small or fast objects), a detection whose centre is within this many of the
   * predicted box's diagonals still matches, ranked below every IoU match. 0 turns centre matching off.
   */
  centreDistance: number;
  /** Hits (confident detections) before a track is confirmed. */
  confirmHits: number;
  /**
   * Milliseconds an unconfirmed track survives without a confident detection: a person half hidden by a neighbour is
   * scored above and below `highScore` by turns, and at 5 frames a second would otherwise never get three in a row.
   * A false box rarely comes back in the same place so soon, and never counts before it is confirmed.
   */
  maxTentativeLostMs: number;
  /** Milliseconds a confirmed track survives without a detection (occlusion, a missed box); seen again within them, it keeps its id. */
  maxLostMs: number;
  /** Weight of the newest measurement in the smoothed velocity (0–1). */
  velocitySmoothing: number;
}

export const DEFAULT_TRACKER_OPTIONS: TrackerOptions = {
  highScore: 0.5,
  highScoreByLabel: { person: 0.3 },
  lowScore: 0.1,
  matchIou: 0.2,
  lowMatchIou: 0.4,
  centreDistance: 1,
  confirmHits: 3,
  maxTentativeLostMs: 400,
  maxLostMs: 1500,
  velocitySmoothing: 0.5,
};

/** The least score the detector must hand the tracker: its weak boxes keep tracks alive (see `lowScore`). */
export const TRACKER_MIN_SCORE = DEFAULT_TRACKER_OPTIONS.lowScore;

/** A missed track coasts at its last speed this long, then slows (exponentially, over `COAST_DECAY_S`) to a stop. */
const COAST_FULL_S = 0.4;
const COAST_DECAY_S = 0.4;

/**
 * How far, in seconds of its last velocity, the motion model moves an object `seconds` after it was last seen: the
 * whole way for a short gap (a box in the next frame is where the walk takes it, not where it was, so boxes do not lag),
 * then less and less, so a long gap never flings the prediction across the picture (people stop, turn, and wait).
 */
export function coastSeconds(seconds: number): number {
  if (seconds <= COAST_FULL_S) return Math.max(0, seconds);
  return COAST_FULL_S + COAST_DECAY_S * (1 - Math.exp(-(seconds - COAST_FULL_S) / COAST_DECAY_S));
}

export interface Tracker {
  /** One frame's detections at time `at` (milliseconds, increasing): returns every live track, confirmed or not. */
  update(detections: readonly Detection[], at: number): Track[];
  /** The live tracks after the latest update. */
  tracks(): Track[];
  /** Forget every track (a new camera, a new scene); ids keep counting up so old events never share an id with new ones. */
  reset(): void;
}

/** A track as the tracker keeps it: with the last measured box, which predictions start from even while the track is missed. */
interface LiveTrack extends Track {
  measured: Box;
}

function centre(box: Box) {
  return { x: (box.x_min + box.x_max) / 2, y: (box.y_min + box.y_max) / 2 };
}

/** Where the constant-velocity model puts the track's box at time `at`. */
function predict(track: LiveTrack, at: number): Box {
  const seconds = coastSeconds((at - track.lastSeenAt) / 1000);
  const { measured } = track;
  const dx = track.velocity.x * seconds;
  const dy = track.velocity.y * seconds;
  return { x_min: measured.x_min + dx, y_min: measured.y_min + dy, x_max: measured.x_max + dx, y_max: measured.y_max + dy };
}

/**
 * How well a detection fits a predicted box: its IoU when that reaches `minIou`, else a value below `minIou` that
 * falls with centre distance (so an overlap always wins over mere nearness), else 0.
 */
function similarity(predicted: Box, detected: Box, minIou: number, centreDistance: number): number {
  const overlap = iou(predicted, detected);
  if (overlap >= minIou) return overlap;
  if (centreDistance <= 0) return 0;
  // Inline rather than through centre() and Math.hypot: this runs for many pairs a frame, and must not allocate.
  const dx = (detected.x_min + detected.x_max - predicted.x_min - predicted.x_max) / 2;
  const dy = (detected.y_min + detected.y_max - predicted.y_min - predicted.y_max) / 2;
  const pw = boxWidth(predicted);
  const ph = boxHeight(predicted);
  const reach = centreDistance * Math.sqrt(pw * pw + ph * ph);
  const distance = Math.sqrt(dx * dx + dy * dy);
  if (distance >= reach) return 0;
  // Also require a similar size: a child walking past an adult's feet is not the adult.
  const sizeRatio = (boxWidth(detected) * boxHeight(detected)) / (pw * ph);
  if (sizeRatio < 0.5 || sizeRatio > 2) return 0;
  return minIou * (1 - distance / reach) * 0.999;
}

/** The best one-to-one matching of tracks to detections (assignment.ts); the same input always gives the same ids. */
function assign(tracks: readonly Track[], predicted: readonly Box[], detections: readonly Detection[], minIou: number, centreDistance: number) {
  const candidates: Candidate[] = [];
  for (let t = 0; t < tracks.length; t++) {
    const track = tracks[t]!;
    const p = predicted[t]!;
    // Farther than this from the predicted box, a detection neither overlaps it nor is within centre reach (which is
    // at most centreDistance × the diagonal ≤ centreDistance × (w + h)): most pairs in a busy picture end here.
    const slack = centreDistance * (boxWidth(p) + boxHeight(p));
    for (let d = 0; d < detections.length; d++) {
      const detection = detections[d]!;
      if (detection.label !== track.label) continue;
      const b = detection.box;
      if (b.x_min > p.x_max + slack || b.x_max < p.x_min - slack || b.y_min > p.y_max + slack || b.y_max < p.y_min - slack) continue;
      const value = similarity(p, b, minIou, centreDistance);
      if (value > 0) candidates.push({ row: t, column: d, similarity: value });
    }
  }
  // Overlaps first, then mere nearness among what is left: an overlap always wins, and the nearness candidates (which
  // link every neighbour in a crowd into one big group) never make the optimal matching solve more than it must.
  const overlaps = candidates.filter((c) => c.similarity >= minIou);
  const pairs = bestPairs(tracks.length, detections.length, overlaps);
  const trackTaken = new Uint8Array(tracks.length);
  const detectionTaken = new Uint8Array(detections.length);
  const take = ([t, d]: [number, number]) => {
    trackTaken[t] = 1;
    detectionTaken[d] = 1;
  };
  pairs.forEach(take);
  if (overlaps.length < candidates.length) {
    const near = candidates.filter((c) => c.similarity < minIou && !trackTaken[c.row] && !detectionTaken[c.column]);
    for (const pair of bestPairs(tracks.length, detections.length, near)) {
      take(pair);
      pairs.push(pair);
    }
  }
  return { pairs, trackTaken, detectionTaken };
}

export function createTracker(options: Partial<TrackerOptions> = {}): Tracker {
  const settings = { ...DEFAULT_TRACKER_OPTIONS, ...options };
  let live: LiveTrack[] = [];
  let nextId = 1;

  function hit(track: LiveTrack, detection: Detection, at: number): void {
    const seconds = (at - track.lastSeenAt) / 1000;
    if (seconds > 0 && track.hits > 0) {
      const before = centre(track.measured);
      const after = centre(detection.box);
      const a = settings.velocitySmoothing;
      // The first measured velocity is taken as it is; after that it is smoothed, so one jittery box does not fling the prediction.
      const weight = track.hits === 1 ? 1 : a;
      track.velocity = {
        x: track.velocity.x * (1 - weight) + ((after.x - before.x) / seconds) * weight,
        y: track.velocity.y * (1 - weight) + ((after.y - before.y) / seconds) * weight,
      };
    }
    track.box = { ...detection.box };
    track.measured = track.box;
    track.score = detection.score;
    track.hits++;
    track.misses = 0;
    track.lastSeenAt = at;
    if (track.hits >= settings.confirmHits) track.confirmed = true;
  }

  function update(detections: readonly Detection[], at: number): Track[] {
    const high: Detection[] = [];
    const low: Detection[] = [];
    for (const detection of detections) {
      if (detection.score >= (settings.highScoreByLabel[detection.label] ?? settings.highScore)) high.push(detection);
      else if (detection.score >= settings.lowScore) low.push(detection);
    }
    const predicted = live.map((track) => predict(track, at));

    // First pass: confident detections against every track.
    const first = assign(live, predicted, high, settings.matchIou, settings.centreDistance);
    for (const [t, d] of first.pairs) hit(live[t]!, high[d]!, at);

    // Second pass: weak detections keep confirmed tracks alive through partial occlusion and motion blur, but never
    // start or confirm a track (ByteTrack's insight: low scores are mostly real objects, seen badly).
    const waiting: number[] = [];
    for (let t = 0; t < live.length; t++) if (!first.trackTaken[t] && live[t]!.confirmed) waiting.push(t);
    const second = assign(
      waiting.map((t) => live[t]!),
      waiting.map((t) => predicted[t]!),
      low,
      settings.lowMatchIou,
      0,
    );
    const matched = first.trackTaken;
    for (const [w, d] of second.pairs) {
      const t = waiting[w]!;
      hit(live[t]!, low[d]!, at);
      matched[t] = 1;
    }

    const kept: LiveTrack[] = [];
    for (let t = 0; t < live.length; t++) {
      const track = live[t]!;
      track.age++;
      if (!matched[t]) {
        track.misses++;
        if (at - track.lastSeenAt > (track.confirmed ? settings.maxLostMs : settings.maxTentativeLostMs)) continue;
        track.box = predicted[t]!;
      }
      kept.push(track);
    }
    for (let d = 0; d < high.length; d++) {
      if (first.detectionTaken[d]) continue;
      const detection = high[d]!;
      const track: LiveTrack = {
        id: nextId++,
        label: detection.label,
        box: detection.box,
        measured: detection.box,
        score: detection.score,
        confirmed: false,
        hits: 0,
        misses: 0,
        age: 1,
        velocity: { x: 0, y: 0 },
        firstSeenAt: at,
        lastSeenAt: at,
      };
      hit(track, detection, at);
      kept.push(track);
    }
    live = kept;
    return tracks();
  }

  function tracks(): Track[] {
    // Spelled out rather than spread: this runs every frame, and a copy keeps callers from changing the tracker's state.
    return live.map((t) => ({
      id: t.id,
      label: t.label,
      box: { x_min: t.box.x_min, y_min: t.box.y_min, x_max: t.box.x_max, y_max: t.box.y_max },
      score: t.score,
      confirmed: t.confirmed,
      hits: t.hits,
      misses: t.misses,
      age: t.age,
      velocity: { x: t.velocity.x, y: t.velocity.y },
      firstSeenAt: t.firstSeenAt,
      lastSeenAt: t.lastSeenAt,
    }));
  }

  return {
    update,
    tracks,
    reset() {
      live = [];
    },
  };
}

/** A confirmed track still drawn through this many missed frames, so one missed detection does not blink its box. */
const SHOWN_THROUGH_MISSES = 3;

/** Whether the studio shows (and the people count counts) a track: confirmed, and not lost for long. */
export function shown(track: Track): boolean {
  return track.confirmed && track.misses <= SHOWN_THROUGH_MISSES;
}
