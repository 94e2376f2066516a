// How every browser in tests and benchmarks is launched: the system Chromium (never a downloaded one) with the
// flags that keep it quiet and off the network (no background fetches, updates or sync).
export const CHROMIUM_PATH = "/usr/bin/chromium";

/** Playwright adds its own headless flag; chrome-launcher users add "--headless". */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** A fake webcam showing the picture in `y4mFile`, allowed without a prompt. */
export const fakeCameraFlags = (y4mFile: string) => ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${y4mFile}`];
