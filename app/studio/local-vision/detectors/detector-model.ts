// A local object-detection model, as the detector's worker (../detector-worker.ts) runs it: one file per model in
// this folder (CenterNet today), like Frigate's detectors/plugins. The worker picks the tfjs backend, hands the model
// each frame as a bitmap and runs non-maximum suppression on what it answers; the model only loads and answers.
import type { LocalDetection } from "../detector-types";
import type { Tfjs } from "../tfjs-types";

export interface DetectorModel {
  /** Fetches the model from our own assets (`onProgress` gets 0..1) and runs it once, so no frame pays the compilation. */
  load(tf: Tfjs, onProgress: (fraction: number) => void): Promise<LoadedDetector>;
}

export interface LoadedDetector {
  /** Candidates scoring at least `minScore`, with boxes normalised to the frame; they may overlap. */
  detect(bitmap: ImageBitmap, minScore: number): Promise<LocalDetection[]>;
  dispose(): void;
}
