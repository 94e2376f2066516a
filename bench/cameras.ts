// IP camera benchmarks (issue 18), 720p15 H.264 from the fake IP camera on loopback, each figure next to ffmpeg
// alone doing the same work in the same run (bench/camera-baselines.ts, with the app's own pull arguments):
// 1. glass-to-glass latency to a decoded frame in the studio's live player in headless Chromium, read from the
//    frame counter the fake burns into its picture, against ffmpeg alone decoding the same pull;
// 2. server CPU per stream (copy-mux) with N viewers: the app process and its ffmpeg children against ffmpeg alone;
// 3. 8 cameras × 2 viewers for 60 s: stalls per viewer and the app's memory at start, middle and end;
// 4. snapshots for monitors (GET /api/cameras/{id}/snapshot) on a running and on a cold stream.
import { setTimeout as sleep } from "node:timers/promises";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { startFakeIpCamera, type FakeIpCamera } from "../tests/fakes/ip-camera/camera";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";
import { startApp, startTestPostgres, tempDir, type TestApp } from "../tests/support/stack";
import { appFfmpeg, appPullArgs, appSnapshotArgs, ffmpegGrabJpegMs, startFfmpegDecode, startFfmpegFragments, startFfmpegPull, startFmp4Decode } from "./camera-baselines";
import { PlaybackModel, sampleDecodedFrames, WsViewer } from "./camera-viewers";
import { machine, machineLoad, ms, rssBytes, table, treeCpu, treeCpuBetween, verdict } from "./lib";

const CAMERAS = 8;
const VIEWERS_PER_CAMERA = 2;
const FPS = 15;
const WIDTH = 1280;
const LATENCY_SECONDS = Number(process.env.BENCH_CAMERA_LATENCY_SECONDS ?? 20);
const CPU_SECONDS = Number(process.env.BENCH_CAMERA_CPU_SECONDS ?? 15);
const SOAK_SECONDS = Number(process.env.BENCH_CAMERA_SOAK_SECONDS ?? 60);
const SNAPSHOTS_RUNNING = 20;
const PREVIEW = '[data-testid="preview-video"]';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};
const pct = (cpuMs: number, seconds: number) => (cpuMs / (seconds * 1000)) * 100;
const pctText = (value: number) => `${value.toFixed(1)} %`;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)} ×`;

interface Session {
  app: TestApp;
  cookie: string;
  headers: Record<string, string>;
}

async function signUp(app: TestApp): Promise<Session> {
  const response = await fetch(`${app.url}/api/auth/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: app.url },
    body: JSON.stringify({ username: "bench_cameras", password: "bench-password" }),
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers.getSetCookie()[0]!.split(";")[0]!;
  return { app, cookie, headers: { cookie, origin: app.url } };
}

/** The camera's main stream with its login, as a user would paste it into Add IP Camera. */
const streamUrl = (camera: FakeIpCamera) => camera.rtspUrl("/1").replace("rtsp://", `rtsp://${camera.username}:${camera.password}@`);

async function addIpCamera(session: Session, name: string, camera: FakeIpCamera): Promise<string> {
  const response = await fetch(`${session.app.url}/api/cameras/ip`, {
    method: "POST",
    headers: { ...session.headers, "content-type": "application/json" },
    body: JSON.stringify({ name, streamUrl: streamUrl(camera) }),
  });
  if (response.status !== 201) throw new Error(`POST /api/cameras/ip answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

const liveUrl = (session: Session, id: string) => `${session.app.url.replace("http://", "ws://")}/api/cameras/${id}/live`;
const viewer = (session: Session, id: string) => new WsViewer(liveUrl(session, id), session.headers, FPS);

/** ms for one GET /api/cameras/{id}/snapshot, checked to be a JPEG at the main stream's full size. */
async function appSnapshotMs(session: Session, id: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${session.app.url}/api/cameras/${id}/snapshot`, { headers: session.headers });
  const body = Buffer.from(await response.arrayBuffer());
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`snapshot answered ${response.status}: ${body.toString()}`);
  const { width, format } = await sharp(body).metadata();
  if (format !== "jpeg" || width !== WIDTH) throw new Error(`snapshot is ${format} ${width} px wide, not a ${WIDTH} px JPEG`);
  return elapsed;
}

/** ms for the fake camera's own HTTP snapshot (Digest), what a monitor asking the camera directly would wait. */
async function cameraSnapshotMs(camera: FakeIpCamera): Promise<number> {
  const { authorizationFor } = await import("../tests/fakes/ip-camera/auth");
  const url = camera.snapshotUrl(1);
  const started = performance.now();
  const challenge = await fetch(url);
  await challenge.arrayBuffer();
  const path = new URL(url).pathname + new URL(url).search;
  const authorization = authorizationFor(challenge.headers.get("www-authenticate")!, "GET", path, camera.username, camera.password);
  const response = await fetch(url, { headers: { authorization } });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`the camera's snapshot answered ${response.status}`);
  return performance.now() - started;
}

/** Waits until the app has no ffmpeg child (its pulls idled out), so the next measure starts cold. */
async function untilNoPulls(app: TestApp, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (treeCpu(app.process.pid!, "ffmpeg").children.size > 0) {
    if (Date.now() > deadline) throw new Error("the app's ffmpeg pulls did not stop after their viewers left");
    await sleep(200);
  }
}

export async function runCamerasBenchmarks(): Promise<string> {
  const dataDir = tempDir("bench-cameras");
  process.env.DATA_DIR ??= dataDir; // the server modules imported for the baselines read the config
  const binary = await appFfmpeg(dataDir);
  const pg = await startTestPostgres();
  // A real camera encodes all the time; the fake encodes while pulled and 20 s after, enough to keep each measure warm.
  const cameras = await Promise.all(Array.from({ length: CAMERAS }, () => startFakeIpCamera({ idleMs: 20_000 })));
  const app = await startApp({
    DATABASE_URL: await pg.createDatabase(),
    DATA_DIR: dataDir,
    // The fake cameras are on loopback: allow it as a camera network, as a LAN would be.
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    CAMERA_STREAM_IDLE_MS: "2000",
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
  const viewers: WsViewer[] = [];
  const stops: Array<() => Promise<void>> = [];
  try {
    const session = await signUp(app);
    const ids: string[] = [];
    for (const [i, camera] of cameras.entries()) ids.push(await addIpCamera(session, `Bench camera ${i + 1}`, camera));
    const args = await Promise.all(cameras.map((camera) => appPullArgs(binary, streamUrl(camera))));
    const jpegArgs = await Promise.all(cameras.map((camera) => appSnapshotArgs(binary, streamUrl(camera))));
    const appPid = app.process.pid!;
    const loadAtStart = machineLoad();

    // 4. Snapshots. Cold: no pull in the app (the camera itself warm, as a real one always is), the app's snapshot
    // and ffmpeg alone grabbing one JPEG from a cold start at the same moment, so both wait for the same keyframe.
    // Running: with a viewer watching, against the camera's own HTTP snapshot.
    await Promise.all(jpegArgs.map((a) => ffmpegGrabJpegMs(binary, a))); // wakes every fake's encoder
    await untilNoPulls(app);
    const coldApp: number[] = [];
    const coldFfmpeg: number[] = [];
    for (const [i, id] of ids.entries()) {
      const [appMs, aloneMs] = await Promise.all([appSnapshotMs(session, id), ffmpegGrabJpegMs(binary, jpegArgs[i]!)]);
      coldApp.push(appMs);
      coldFfmpeg.push(aloneMs);
    }
    const snapViewer = viewer(session, ids[0]!);
    await snapViewer.watching;
    const runningApp: number[] = [];
    const runningCamera: number[] = [];
    await cameraSnapshotMs(cameras[0]!); // starts the camera's JPEG encoder
    for (let i = 0; i < SNAPSHOTS_RUNNING; i++) {
      runningApp.push(await appSnapshotMs(session, ids[0]!));
      runningCamera.push(await cameraSnapshotMs(cameras[0]!));
    }
    snapViewer.close();
    await untilNoPulls(app);

    // 2. CPU per stream: the app (its Node process and its ffmpeg child) with N viewers, and ffmpeg alone running
    // the app's own pull of the same camera over the same interval; the app's idle CPU measured just before.
    const idleBefore = treeCpu(appPid, "ffmpeg");
    await sleep(5000);
    const idle = treeCpuBetween(idleBefore, treeCpu(appPid, "ffmpeg"));
    const idleRate = idle.self / 5; // ms of CPU per second
    const cpuViewers = Array.from({ length: VIEWERS_PER_CAMERA }, () => viewer(session, ids[1]!));
    viewers.push(...cpuViewers);
    await Promise.all(cpuViewers.map((v) => v.watching));
    const alone = startFfmpegPull(binary, args[1]!);
    stops.push(alone.stop);
    await sleep(3000); // both past start-up (probing, first keyframe)
    const appBefore = treeCpu(appPid, "ffmpeg");
    const aloneBefore = treeCpu(alone.pid);
    await sleep(CPU_SECONDS * 1000);
    const appCpu = treeCpuBetween(appBefore, treeCpu(appPid, "ffmpeg"));
    const aloneCpu = treeCpuBetween(aloneBefore, treeCpu(alone.pid)).self;
    await alone.stop();
    for (const v of cpuViewers) v.close();
    const appNodePct = pct(appCpu.self - idleRate * CPU_SECONDS, CPU_SECONDS);
    const appFfmpegPct = pct(appCpu.children, CPU_SECONDS);
    const alonePct = pct(aloneCpu, CPU_SECONDS);
    const abovePct = appNodePct + appFfmpegPct - alonePct;

    // 1. Glass-to-glass: the studio's live player in headless Chromium, and ffmpeg alone decoding the same camera.
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([{ name: session.cookie.split("=")[0]!, value: session.cookie.slice(session.cookie.indexOf("=") + 1), url: app.url }]);
    const page = await context.newPage();
    await page.goto(`${app.url}/studio`);
    // The card's select button lies under its text (the card is the target); a dispatched click selects it all the same.
    const select = page.getByRole("button", { name: "Select Bench camera 1", exact: true });
    if ((await select.getAttribute("aria-pressed")) !== "true") await select.dispatchEvent("click");
    await page.waitForFunction((w) => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement | null)?.videoWidth === w, WIDTH, { timeout: 30_000 });
    // Each frame's latency is taken when it is read: the fake remembers send times for its latest 600 frames only.
    const latencies = () => {
      const result = { values: [] as number[], unreadable: 0, measuring: false };
      const add = (counter: number, at: number) => {
        if (!result.measuring) return;
        const sent = cameras[0]!.frameSentAt("/1", counter);
        if (sent === undefined || at < sent) result.unreadable += 1;
        else result.values.push(at - sent);
      };
      return Object.assign(result, { add });
    };
    const ffmpegLatency = latencies();
    const decoder = startFfmpegDecode(binary, args[0]!, WIDTH, ffmpegLatency.add);
    stops.push(decoder.stop);
    // The server path without the player: what a WebSocket viewer receives, decoded by ffmpeg as it arrives.
    const socketLatency = latencies();
    const socketDecoder = startFmp4Decode(binary, WIDTH, socketLatency.add);
    stops.push(socketDecoder.stop);
    const socketViewer = viewer(session, ids[0]!);
    viewers.push(socketViewer);
    socketViewer.onBinary = (data) => socketDecoder.write(data);
    await socketViewer.watching;
    await sleep(3000); // the decoders past their start-up
    ffmpegLatency.measuring = socketLatency.measuring = true;
    const decoded = await sampleDecodedFrames(page, PREVIEW, LATENCY_SECONDS);
    ffmpegLatency.measuring = socketLatency.measuring = false;
    const appLatency = latencies();
    appLatency.measuring = true;
    for (const frame of decoded) appLatency.add(frame.counter, frame.at);
    socketViewer.close();
    await Promise.all([decoder.stop(), socketDecoder.stop()]);
    await context.close();
    const browserGaps = decoded.slice(1).map((f, i) => f.at - decoded[i]!.at);
    await untilNoPulls(app);

    // 3. 8 cameras × 2 viewers (WebSocket clients in this process), 60 s; memory of the app process over it.
    for (const id of ids) for (let v = 0; v < VIEWERS_PER_CAMERA; v++) viewers.push(viewer(session, id));
    const soak = viewers.slice(-CAMERAS * VIEWERS_PER_CAMERA);
    // Side by side, per camera: ffmpeg alone running the app's pull, its fragments timed the same way.
    let aloneModels = cameras.map(() => new PlaybackModel(FPS));
    const pulls = args.map((a, i) => startFfmpegFragments(binary, a, (at, frames) => aloneModels[i]!.fragment(at, frames)));
    stops.push(...pulls.map((p) => p.stop));
    await Promise.all(soak.map((v) => v.watching));
    await sleep(3000); // all past their first fragments
    for (const v of soak) v.restart();
    aloneModels = cameras.map(() => new PlaybackModel(FPS));
    const soakBefore = treeCpu(appPid, "ffmpeg");
    const rss = [rssBytes(appPid)];
    await sleep((SOAK_SECONDS * 1000) / 2);
    rss.push(rssBytes(appPid));
    await sleep((SOAK_SECONDS * 1000) / 2);
    rss.push(rssBytes(appPid));
    const soakCpu = treeCpuBetween(soakBefore, treeCpu(appPid, "ffmpeg"));
    for (const v of soak) v.close();
    const aloneFinal = aloneModels;
    await Promise.all(pulls.map((p) => p.stop()));
    const aloneStalls = aloneFinal.reduce((sum, m) => sum + m.stalls, 0);
    const aloneFrames = aloneFinal.map((m) => m.frames);
    const stalls = soak.map((v) => v.model.stalls);
    const worstWait = Math.max(...soak.map((v) => v.model.longestWaitMs));
    const worstGap = Math.max(...soak.map((v) => v.model.maxArrivalGapMs));
    const restarts = soak.reduce((sum, v) => sum + v.inits, 0);
    const frames = soak.map((v) => v.model.frames);
    const loadAtEnd = machineLoad();

    const totalStalls = stalls.reduce((a, b) => a + b, 0);
    const p50 = percentile(appLatency.values, 50);
    const basep50 = percentile(ffmpegLatency.values, 50);
    return [
      `## IP cameras (${CAMERAS} fake IP cameras, ${WIDTH}×720 ${FPS} fps H.264 main stream, on loopback)`,
      "",
      `Each figure is measured next to ffmpeg alone (${binary.source} ffmpeg ${binary.version}) doing the same work with the app's own pull arguments (server/cameras/stream/pull-args.ts), in the same run. Machine: ${loadAtStart} at the start, ${loadAtEnd} at the end (the fake cameras' encoders run on the same 2 cores).`,
      "",
      table(
        ["figure", "app", "baseline (same run)", "ratio", "target"],
        [
          [
            `glass-to-glass to a decoded frame, p50 (studio live player in Chromium, ${appLatency.values.length} frames in ${LATENCY_SECONDS} s)`,
            ms(p50),
            `${ms(basep50)} (ffmpeg alone decoding the same pull)`,
            ratio(p50, basep50),
            `p50 ≤ 1000 ms ${verdict(p50 <= 1000)}`,
          ],
          [
            "glass-to-glass, p99",
            ms(percentile(appLatency.values, 99)),
            ms(percentile(ffmpegLatency.values, 99)),
            ratio(percentile(appLatency.values, 99), percentile(ffmpegLatency.values, 99)),
            "",
          ],
          [
            "camera to a decoded frame through the app's WebSocket, no player: p50 / p99 (ffmpeg decoding what a viewer receives)",
            `${ms(percentile(socketLatency.values, 50))} / ${ms(percentile(socketLatency.values, 99))}`,
            `${ms(basep50)} / ${ms(percentile(ffmpegLatency.values, 99))}`,
            ratio(percentile(socketLatency.values, 50), basep50),
            "",
          ],
          [
            `server CPU per stream, copy-mux, ${VIEWERS_PER_CAMERA} viewers (% of a core over ${CPU_SECONDS} s)`,
            `${pctText(appNodePct + appFfmpegPct)} (Node ${pctText(appNodePct)} above its idle, its ffmpeg ${pctText(appFfmpegPct)})`,
            `${pctText(alonePct)} (ffmpeg alone)`,
            ratio(appNodePct + appFfmpegPct, alonePct),
            `≤ 3 % above ffmpeg's own: ${pctText(abovePct)} ${verdict(abovePct <= 3)}`,
          ],
          [
            `stalls per viewer, ${CAMERAS} cameras × ${VIEWERS_PER_CAMERA} viewers for ${SOAK_SECONDS} s (WebSocket fragments)`,
            `${totalStalls} in all, max ${Math.max(...stalls)} per viewer`,
            `${aloneStalls} in all (ffmpeg alone pulling each camera, timed the same way)`,
            "",
            `0 ${verdict(totalStalls === 0)}`,
          ],
          [
            "app memory (RSS) at start / middle / end of the soak",
            rss.map(mb).join(" / "),
            "",
            ratio(rss[2]!, rss[0]!),
            `flat (end ≤ 1.1 × start) ${verdict(rss[2]! <= rss[0]! * 1.1)}`,
          ],
          [
            `snapshot on a running stream, p50 / p95 of ${SNAPSHOTS_RUNNING}`,
            `${ms(percentile(runningApp, 50))} / ${ms(percentile(runningApp, 95))}`,
            `${ms(percentile(runningCamera, 50))} / ${ms(percentile(runningCamera, 95))} (the camera's own HTTP snapshot)`,
            ratio(percentile(runningApp, 50), percentile(runningCamera, 50)),
            "",
          ],
          [
            `snapshot on a cold stream, p50 / p95 of ${CAMERAS}`,
            `${ms(percentile(coldApp, 50))} / ${ms(percentile(coldApp, 95))}`,
            `${ms(percentile(coldFfmpeg, 50))} / ${ms(percentile(coldFfmpeg, 95))} (ffmpeg alone with the app's snapshot arguments, started at the same moment)`,
            ratio(percentile(coldApp, 50), percentile(coldFfmpeg, 50)),
            "",
          ],
        ],
      ),
      "",
      `Latency is Date.now() in Chromium's requestVideoFrameCallback for the decoded frame (its counter read back from the canvas) minus when the fake camera's encoder sent that frame; the baseline is the same for the frames ffmpeg alone decodes from the same camera at the same time (the counter rows cropped and piped raw to this process). The WebSocket row splits the app's share from the player's: a WebSocket viewer in this process feeds what it receives to an ffmpeg decoding it as it arrives. Frames whose counter did not read: ${appLatency.unreadable} in Chromium, ${socketLatency.unreadable} through the WebSocket, ${ffmpegLatency.unreadable} from ffmpeg alone. In Chromium the longest gap between decoded frames was ${ms(Math.max(...browserGaps))} (${browserGaps.filter((g) => g > 1000).length} over 1 s).`,
      "",
      `The soak's viewers are WebSocket clients in the benchmark process (decoding 16 720p streams in one headless Chromium would measure Chromium on 2 cores, not the app). A stall is counted at the fragment level: a live player that plays each fragment's frames at ${FPS} fps from its arrival would have frozen more than 1 s waiting for the next fragment. Longest such wait: ${ms(worstWait)}; longest gap between two fragments' arrivals: ${ms(worstGap)}; stream restarts seen (init segments after the first): ${restarts}; frames received per viewer ${Math.min(...frames)}–${Math.max(...frames)}, by ffmpeg alone per camera ${Math.min(...aloneFrames)}–${Math.max(...aloneFrames)} (${SOAK_SECONDS * FPS} at a steady ${FPS} fps; fewer on both sides means the fake cameras' encoders fell behind on the loaded machine). The app spent ${pctText(pct(soakCpu.self, SOAK_SECONDS) / CAMERAS)} of a core per stream in Node and ${pctText(pct(soakCpu.children, SOAK_SECONDS) / CAMERAS)} in its ffmpeg over the soak.`,
      "",
      `CPU is utime + stime from /proc over the same interval: the app's Node process (minus its idle rate, ${pctText(pct(idleRate, 1))} of a core, measured for 5 s just before) plus its ffmpeg children, against an ffmpeg alone running the app's exact arguments with its fMP4 written to /dev/null. Snapshots are checked to be ${WIDTH} px wide JPEGs.`,
    ].join("\n");
  } catch (error) {
    console.error(
      app.logs
        .filter((line) => !line.includes('"level":30'))
        .slice(-30)
        .join("\n"),
    );
    throw error;
  } finally {
    for (const v of viewers) v.close();
    for (const stop of stops) await stop();
    await browser.close();
    await app.stop();
    await Promise.all(cameras.map((camera) => camera.close()));
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runCamerasBenchmarks());
}
