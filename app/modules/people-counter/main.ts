// The People Counter & Analytics module: a page that works opened from disk. It shows a webcam, sends a
// frame to Moondream's /detect ("person") every N seconds with the user's own key, and keeps the count,
// its statistics, a chart and a CSV export. The key stays in this browser's localStorage and is sent
// only to the endpoint configured here.
import { csvFileName, normaliseEndpoint, summarise, toCsv, type Reading } from "./stats";

const STORAGE = { key: "peopleCounter.apiKey", endpoint: "peopleCounter.endpoint", interval: "peopleCounter.interval" };
const DEFAULT_ENDPOINT = "https://api.moondream.ai/v1";
const MAX_FRAME_WIDTH = 1280;

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const video = $<HTMLVideoElement>("video");
const cameraSelect = $<HTMLSelectElement>("camera");
const endpointInput = $<HTMLInputElement>("endpoint");
const keyInput = $<HTMLInputElement>("api-key");
const intervalInput = $<HTMLInputElement>("interval");
const startButton = $<HTMLButtonElement>("start");
const stopButton = $<HTMLButtonElement>("stop");
const exportButton = $<HTMLButtonElement>("export");
const clearButton = $<HTMLButtonElement>("clear");
const statusLine = $<HTMLParagraphElement>("status");
const chart = $<HTMLCanvasElement>("chart");

const readings: Reading[] = [];
let stream: MediaStream | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;

endpointInput.value = localStorage.getItem(STORAGE.endpoint) ?? DEFAULT_ENDPOINT;
keyInput.value = localStorage.getItem(STORAGE.key) ?? "";
intervalInput.value = localStorage.getItem(STORAGE.interval) ?? "5";

function setStatus(text: string, error = false) {
  statusLine.textContent = text;
  statusLine.className = error ? "status error" : "status";
}

async function listCameras() {
  const devices = (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === "videoinput");
  const chosen = cameraSelect.value;
  cameraSelect.replaceChildren(
    ...devices.map((device, index) => {
      const option = document.createElement("option");
      option.value = device.deviceId;
      option.textContent = device.label || `Camera ${index + 1}`;
      return option;
    }),
  );
  if (chosen) cameraSelect.value = chosen;
}

async function openCamera() {
  stream?.getTracks().forEach((track) => track.stop());
  const deviceId = cameraSelect.value;
  stream = await navigator.mediaDevices.getUserMedia({ video: deviceId ? { deviceId: { exact: deviceId } } : true, audio: false });
  video.srcObject = stream;
  await video.play();
  await listCameras(); // labels appear once permission is granted
}

function frameDataUrl(): string {
  const scale = Math.min(1, MAX_FRAME_WIDTH / (video.videoWidth || MAX_FRAME_WIDTH));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round((video.videoWidth || 640) * scale);
  canvas.height = Math.round((video.videoHeight || 480) * scale);
  canvas.getContext("2d")!.drawImage(video, 0, 0, canvas.width, canvas.height);
  return canvas.toDataURL("image/jpeg", 0.85);
}

async function countOnce(): Promise<number> {
  const endpoint = normaliseEndpoint(endpointInput.value)!;
  const response = await fetch(`${endpoint}/detect`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Moondream-Auth": keyInput.value.trim() },
    body: JSON.stringify({ image_url: frameDataUrl(), object: "person", settings: { max_objects: 200 } }),
  });
  const body = (await response.json().catch(() => ({}))) as { objects?: unknown[]; error?: { message?: string } | string };
  if (!response.ok || !Array.isArray(body.objects)) {
    const message = typeof body.error === "string" ? body.error : body.error?.message;
    throw new Error(`Moondream answered ${response.status}${message ? `: ${message}` : ""}`);
  }
  return body.objects.length;
}

function render() {
  const stats = summarise(readings);
  const show = (id: string, value: number | null) => ($(id).textContent = value === null ? "–" : String(value));
  show("current", stats.current);
  show("average", stats.average);
  show("min", stats.min);
  show("max", stats.max);
  $("readings").textContent = String(stats.readings);
  exportButton.disabled = readings.length === 0;
  drawChart();
}

function drawChart() {
  const ratio = window.devicePixelRatio || 1;
  const width = chart.clientWidth || 600;
  const height = chart.clientHeight || 200;
  chart.width = width * ratio;
  chart.height = height * ratio;
  const g = chart.getContext("2d")!;
  g.scale(ratio, ratio);
  g.clearRect(0, 0, width, height);
  g.strokeStyle = "#334155";
  g.strokeRect(0.5, 0.5, width - 1, height - 1);
  if (readings.length === 0) return;
  const max = Math.max(1, ...readings.map((r) => r.count));
  const pad = 24;
  const x = (i: number) => pad + (readings.length === 1 ? 0 : (i / (readings.length - 1)) * (width - 2 * pad));
  const y = (count: number) => height - pad - (count / max) * (height - 2 * pad);
  g.fillStyle = "#94a3b8";
  g.font = "12px system-ui, sans-serif";
  g.fillText(String(max), 4, pad - 8);
  g.fillText("0", 4, height - 6);
  g.strokeStyle = "#38bdf8";
  g.lineWidth = 2;
  g.beginPath();
  readings.forEach((r, i) => (i === 0 ? g.moveTo(x(i), y(r.count)) : g.lineTo(x(i), y(r.count))));
  g.stroke();
  g.fillStyle = "#38bdf8";
  readings.forEach((r, i) => g.fillRect(x(i) - 2, y(r.count) - 2, 4, 4));
}

/** Bumped by every start and stop: an answer that arrives after Stop (or for an earlier run) is dropped. */
let run = 0;

async function tick(mine: number) {
  if (mine !== run) return;
  try {
    const count = await countOnce();
    if (mine !== run) return;
    readings.push({ at: new Date(), count });
    setStatus(`Counted ${count} ${count === 1 ? "person" : "people"} at ${new Date().toLocaleTimeString()}`);
    render();
  } catch (error) {
    if (mine !== run) return;
    setStatus(error instanceof Error ? error.message : "Counting failed", true);
  }
  timer = setTimeout(() => void tick(mine), Math.max(1, Number(intervalInput.value) || 5) * 1000);
}

async function start() {
  const endpoint = normaliseEndpoint(endpointInput.value);
  if (!endpoint) return setStatus("Enter the Moondream endpoint as an http(s) URL", true);
  const seconds = Number(intervalInput.value);
  if (!Number.isFinite(seconds) || seconds < 1 || seconds > 3600) return setStatus("The interval must be between 1 and 3600 seconds", true);
  localStorage.setItem(STORAGE.endpoint, endpoint);
  localStorage.setItem(STORAGE.key, keyInput.value.trim());
  localStorage.setItem(STORAGE.interval, String(seconds));
  try {
    if (!stream) await openCamera();
  } catch (error) {
    return setStatus(`Unable to access webcam: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  run += 1;
  startButton.disabled = true;
  stopButton.disabled = false;
  setStatus("Counting…");
  void tick(run);
}

startButton.addEventListener("click", () => void start());

stopButton.addEventListener("click", () => {
  run += 1;
  if (timer) clearTimeout(timer);
  startButton.disabled = false;
  stopButton.disabled = true;
  setStatus("Stopped");
});

cameraSelect.addEventListener("change", () => void openCamera().catch((error: unknown) => setStatus(`Unable to access webcam: ${String(error)}`, true)));

exportButton.addEventListener("click", () => {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([toCsv(readings)], { type: "text/csv" }));
  link.download = csvFileName();
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
});

clearButton.addEventListener("click", () => {
  readings.length = 0;
  render();
});

$("forget-key").addEventListener("click", () => {
  localStorage.removeItem(STORAGE.key);
  keyInput.value = "";
  setStatus("API key removed from this browser");
});

window.addEventListener("resize", drawChart);
void listCameras().catch(() => setStatus("This browser cannot list cameras", true));
render();
