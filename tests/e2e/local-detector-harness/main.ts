// A bare page around the local detector client and the (fake) webcam, bundled by Vite like the app, for
// the browser test and the benchmark. They drive it through `window.localDetectorHarness`.
import { createLocalDetector, type LocalDetection } from "#app/studio/local-vision/detector";
import type { LoadOptions } from "#app/studio/local-vision/detector-types";

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
};

declare global {
  interface Window {
    localDetectorHarness: typeof harness;
  }
}
window.localDetectorHarness = harness;
document.body.dataset.ready = "true";
