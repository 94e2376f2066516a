// A bare page around the local detector client and the (fake) webcam, bundled by Vite like the app, for
// the browser test and the benchmark. They drive it through `window.localDetectorHarness`.
import { createLocalDetector, type LocalDetection } from "#app/studio/local-vision/detector";
import type { DetectOptions, LoadOptions } from "#app/studio/local-vision/detector-types";
import { fitLongEdge } from "#app/studio/frames/frame-grabber";

const detector = createLocalDetector();
const video = document.querySelector("video")!;
const longTasks: number[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: "longtask" });

const harness = {
  async load(options?: LoadOptions) {
    const started = performance.now();
    const progress: number[] = [];
    const { backend } = await detector.load((fraction) => progress.push(fraction), options);
    return { backend, loadMs: performance.now() - started, progress };
  },
  /** Stops the worker; the next load starts a new one. */
  dispose() {
    detector.dispose();
  },
  async startCamera() {
    video.srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 360 } });
    await video.play();
    return { width: video.videoWidth, height: video.videoHeight };
  },
  /** Detects on `frames` successive camera frames, one after another, counting long tasks meanwhile. */
  async detectFrames(frames: number) {
    const longTasksBefore = longTasks.length;
    const results: LocalDetection[][] = [];
    const started = performance.now();
    for (let i = 0; i < frames; i++) results.push(await detector.detect(await createImageBitmap(video)));
    const elapsedMs = performance.now() - started;
    return { results, framesPerSecond: (frames * 1000) / elapsedMs, longTasks: longTasks.slice(longTasksBefore) };
  },
  /**
   * Detects on the picture at `url` scaled as the studio scales its preview (long edge `longEdge`), or stretched to
   * a `stretchTo`² square first (how the detector fed the model before letterboxing): the accuracy benchmark's frames.
   */
  async detectPicture(url: string, longEdge: number, options?: DetectOptions, stretchTo?: number) {
    const blob = await (await fetch(url)).blob();
    const source = await createImageBitmap(blob);
    const size = stretchTo ? { width: stretchTo, height: stretchTo } : fitLongEdge(source.width, source.height, longEdge);
    const bitmap = await createImageBitmap(source, { resizeWidth: size.width, resizeHeight: size.height, resizeQuality: "low" });
    source.close();
    const started = performance.now();
    const detections = await detector.detect(bitmap, options);
    return { detections, ms: performance.now() - started };
  },
};

declare global {
  interface Window {
    localDetectorHarness: typeof harness;
  }
}
window.localDetectorHarness = harness;
document.body.dataset.ready = "true";
