// The accuracy benchmark's arithmetic: detections against the photos' boxes (recall and precision per class at
// IoU ≥ 0.5, crowd regions neither right nor wrong), and a scene's line crossings against the clip's counted ones.
import type { LocalDetection } from "#app/studio/local-vision/detector-types";
import { iou, type Box } from "#app/studio/local-vision/geometry";
import type { FrameDetections } from "./accuracy-detect";

/** `ground_truth.json` of the shared photos: per file, its size and its boxes in pixels. */
export type PhotoTruth = Record<string, { width: number; height: number; boxes: Array<{ label: string; bbox_xywh: [number, number, number, number]; iscrowd?: boolean }> }>;

export interface ClassScore {
  label: string;
  truths: number;
  detected: number;
  matched: number;
}

const MATCH_IOU = 0.5;

/** Per class: annotated objects, detections (crowd matches left out) and true positives, greedy by score as COCO does. */
export function scorePhotos(frames: readonly FrameDetections[], truth: PhotoTruth, pick: (detections: LocalDetection[]) => LocalDetection[]): Map<string, ClassScore> {
  const scores = new Map<string, ClassScore>();
  const score = (label: string) => scores.get(label) ?? scores.set(label, { label, truths: 0, detected: 0, matched: 0 }).get(label)!;
  for (const { frame, detections } of frames) {
    const photo = truth[String(frame)];
    if (!photo) continue;
    const toBox = ([x, y, w, h]: readonly number[]): Box => ({
      x_min: x! / photo.width,
      y_min: y! / photo.height,
      x_max: (x! + w!) / photo.width,
      y_max: (y! + h!) / photo.height,
    });
    const objects = photo.boxes.filter((b) => !b.iscrowd).map((b) => ({ label: b.label, box: toBox(b.bbox_xywh), taken: false }));
    const crowds = photo.boxes.filter((b) => b.iscrowd).map((b) => ({ label: b.label, box: toBox(b.bbox_xywh) }));
    for (const object of objects) score(object.label).truths += 1;
    for (const detection of [...pick(detections)].sort((a, b) => b.score - a.score)) {
      let best: (typeof objects)[number] | undefined;
      let bestIou = MATCH_IOU;
      for (const object of objects) {
        const overlap = object.label === detection.label && !object.taken ? iou(object.box, detection.box) : 0;
        if (overlap >= bestIou) [best, bestIou] = [object, overlap];
      }
      if (best) {
        best.taken = true;
        score(detection.label).detected += 1;
        score(detection.label).matched += 1;
      } else if (!crowds.some((crowd) => crowd.label === detection.label && insideShare(detection.box, crowd.box) >= MATCH_IOU)) {
        score(detection.label).detected += 1;
      }
    }
  }
  return scores;
}

/** The share of `box` inside `region` (COCO's overlap with a crowd region). */
function insideShare(box: Box, region: Box): number {
  const w = Math.min(box.x_max, region.x_max) - Math.max(box.x_min, region.x_min);
  const h = Math.min(box.y_max, region.y_max) - Math.max(box.y_min, region.y_min);
  const area = (box.x_max - box.x_min) * (box.y_max - box.y_min);
  return w > 0 && h > 0 && area > 0 ? (w * h) / area : 0;
}

export const recall = (s: ClassScore | undefined) => (s && s.truths ? s.matched / s.truths : 0);
export const precision = (s: ClassScore | undefined) => (s && s.detected ? s.matched / s.detected : 1);

/** `clip.gt.json`: per person, the seconds within which they cross the line. */
export interface ClipTruth {
  lines: Record<string, { counts: { left_to_right: number; right_to_left: number } }>;
  people: Array<{ n: number; enters_s: [number, number]; crosses_V75_s: [number, number]; gone_by_s: number }>;
}

export interface CrossingEvent {
  at: number;
  direction: "in" | "out";
}

export interface PassScore {
  leftToRight: number;
  rightToLeft: number;
  falseCrossings: number;
  missed: number;
}

/**
 * Crossings are matched to the people who made them by time: a counted crossing belongs to a person if it comes
 * within 1 s before their crossing to 2 s after it (a counter waits a few frames to be sure). Left→right is `in`.
 */
export function scorePass(events: readonly CrossingEvent[], truth: ClipTruth, passStartMs: number): PassScore {
  const expected = truth.people.map((person) => ({
    from: passStartMs + (person.crosses_V75_s[0] - 1) * 1000,
    to: passStartMs + (person.crosses_V75_s[1] + 2) * 1000,
    taken: false,
  }));
  let falseCrossings = 0;
  for (const event of events) {
    const person = event.direction === "in" ? expected.find((p) => !p.taken && event.at >= p.from && event.at <= p.to) : undefined;
    if (person) person.taken = true;
    else falseCrossings += 1;
  }
  return {
    leftToRight: events.filter((e) => e.direction === "in").length,
    rightToLeft: events.filter((e) => e.direction === "out").length,
    falseCrossings,
    missed: expected.filter((p) => !p.taken).length,
  };
}

/** People in view at `ms` from the clip's start by the ground truth, or null within 1 s of an entry or exit (its tolerance). */
export function peopleInView(truth: ClipTruth, ms: number): number | null {
  const seconds = ms / 1000;
  if (truth.people.some((p) => Math.abs(seconds - p.enters_s[0]) < 1 || Math.abs(seconds - p.gone_by_s) < 1)) return null;
  return truth.people.filter((p) => seconds >= p.enters_s[0] && seconds < p.gone_by_s).length;
}
