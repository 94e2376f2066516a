// A fake Moondream on loopback that speaks the real wire format: the cloud API under /v1 (X-Moondream-Auth,
// error bodies {"error":{"message"}}, 401/413/429 with Retry-After, SSE streaming) and Moondream Station
// under /station/v1 (no key, errors as HTTP 200 {"error": "..."}, chunks without `completed: false`), and an
// older Moondream Station without segmentation under /station-legacy/v1 (/segment is FastAPI's 404).
//
// Answers are deterministic, read from red/green/blue markers in the image (see markers.ts):
//   detect/point  boxes/centres of the markers (only one colour when the object names it)
//   caption       "A test frame with 2 red, 0 green and 1 blue markers."
//   segment       the first marker of the named colour (the one under a spatial_refs point, if any) as bbox, and
//                 FAKE_OUTLINE (a diamond normalised to the bbox) as path; streamed: bbox, path_delta pieces, final
//   query         reasoning: true adds REASONING_MS (the fake models reasoning as time only) and a reasoning object;
//                 scoreboard → fenced JSON: home "Red" = red markers, away "Blue" = blue, period = green
//                 people range → "Roughly N to N+2 people." (N = all markers)
//                 camera assistant → JSON advice for the five sections
// Failure modes are chosen by the API key, so parallel tests never share them:
//   fail-<status>          always that status (429 with Retry-After: 1)
//   flaky-<status>-<n>     that status for the key's first n calls, then normal answers
//   hang…                  never answers        slow-<ms>   answers after ms
//   error-body…            HTTP 200 {"error": ...} (as Moondream Station does)
//   garbage…               HTTP 200 with an HTML page (a proxy's error page: not JSON at all)
//   wrong-shape…           HTTP 200 JSON of the wrong shape (no objects/points/caption/answer)
//   invalid…               401
//   segment-empty…         segment answers an empty path      segment-outside…  a path outside 0–1
//   text-stream…           streamed pieces as {"text": …} instead of {"chunk": …}
// (anything may follow, e.g. "fail-429-<user>", so each test can have its own key).
// and tests can script the next answers of a key (script(), or POST /__fake/script {key, answers}).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { findMarkers, type Marker } from "./markers";

export interface FakeMoondreamOptions {
  port?: number;
  /** Added to every answer (the benchmark's provider latency). */
  latencyMs?: number;
  /** false: skip decoding images and answer fixed boxes (for load tests, where decoding would dominate). */
  analyseImages?: boolean;
}

export interface RecordedCall {
  path: string;
  key: string | undefined;
  bytes: number;
  body: Record<string, unknown>;
  /** When the call arrived, on this process's clock (performance.now()), so tests can count calls per second. */
  at: number;
}

export interface FakeMoondream {
  /** Cloud-style base URL, e.g. http://127.0.0.1:1234/v1 */
  url: string;
  /** Moondream Station-style base URL (no auth, errors as HTTP 200). */
  stationUrl: string;
  /** An older Moondream Station: as stationUrl, but without /segment (404). */
  legacyStationUrl: string;
  calls: RecordedCall[];
  /** The next answers (query or caption text) for this key, in order; "" for key-less calls. */
  script(key: string, answers: string[]): void;
  /** The next `times` calls, whatever their key, fail with this status. */
  failNext(status: number, times?: number): void;
  /** Drops the failures failNext() queued that no call has used yet: the provider is back. */
  recover(): void;
  /** Until release() is called, every call waits before its answer (a tick caught mid-flight); one whose client went away meanwhile gets none. */
  hold(): { waiting(): number; release(): void };
  /** The most calls of the key that were in flight at once (arrived, not yet answered nor given up by their client). */
  peakInFlight(key: string): number;
  close(): Promise<void>;
}

const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The outline segment answers, normalised to the bbox: a diamond touching the middle of each side. */
export const FAKE_OUTLINE = "M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z";
/** Whether a point (fractions of the bbox) is inside FAKE_OUTLINE. */
export const insideFakeOutline = (u: number, v: number) => Math.abs(u - 0.5) + Math.abs(v - 0.5) < 0.5;
/** The time the fake takes to "reason" before a query's answer with reasoning: true (its only model of reasoning). */
export const REASONING_MS = 150;
const FIXED_BOX: Marker = { color: "red", x_min: 0.25, y_min: 0.25, x_max: 0.5, y_max: 0.75 };

export async function startFakeMoondream(options: FakeMoondreamOptions = {}): Promise<FakeMoondream> {
  const calls: RecordedCall[] = [];
  const scripts = new Map<string, string[]>();
  const attemptsByKey = new Map<string, number>();
  const pending: Array<{ status: number }> = [];
  const hanging = new Set<ServerResponse>();
  const analyse = options.analyseImages ?? true;
  let held: { gate: Promise<void>; waiting: number } | undefined;
  const inFlight = new Map<string, number>();
  const peakInFlight = new Map<string, number>();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    // Browsers call the cloud API directly too (the People Counter module, opened from disk): CORS preflight.
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "POST, OPTIONS",
        "Access-Control-Allow-Headers": "Content-Type, X-Moondream-Auth",
        "Access-Control-Allow-Private-Network": "true",
        "Access-Control-Max-Age": "600",
      });
      return res.end();
    }
    if (url.pathname === "/__fake/script" && req.method === "POST") {
      const { key, answers } = JSON.parse((await readBody(req)).toString()) as { key: string; answers: string[] };
      scripts.set(key, [...(scripts.get(key) ?? []), ...answers]);
      return send(res, 200, { ok: true });
    }
    if (url.pathname === "/__fake/stats") {
      // ?key=… counts only that key's calls, so a test running beside others sees its own.
      const key = url.searchParams.get("key");
      return send(res, 200, {
        calls: key === null ? calls.length : calls.filter((c) => c.key === key).length,
        connections,
        bytes: calls.reduce((sum, c) => sum + c.bytes, 0),
        last: calls.at(-1) && { path: calls.at(-1)!.path, bytes: calls.at(-1)!.bytes },
      });
    }
    if (url.pathname === "/health") return send(res, 200, { status: "ok", server: "moondream-station" });

    const legacyStation = url.pathname.startsWith("/station-legacy/v1/");
    const station = legacyStation || url.pathname.startsWith("/station/v1/");
    const skill = url.pathname.replace(/^\/(station(-legacy)?\/)?v1\//, "");
    const fail = (status: number, message: string, headers: Record<string, string> = {}) =>
      station ? send(res, status === 503 ? 503 : 200, { error: message }) : send(res, status, { error: { message, type: "error", code: String(status) } }, headers);

    if (req.method !== "POST" || !["caption", "query", "detect", "point", "segment"].includes(skill)) return send(res, 404, { error: { message: "Not found" } });
    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw.toString()) as Record<string, unknown>;
    } catch {
      return fail(400, "Request body must be JSON");
    }
    const key = req.headers["x-moondream-auth"] as string | undefined;
    // A copy of the image's first characters, not a slice: V8 slices keep their whole parent string alive, and
    // that held every ~300 KB frame of a benchmark in memory (the fake slowed down phase after phase).
    const imagePreview = typeof body.image_url === "string" ? `${Buffer.from(body.image_url.slice(0, 40)).toString()}…` : undefined;
    calls.push({ path: `/${skill}`, key, bytes: raw.length, body: { ...body, image_url: imagePreview }, at: performance.now() });
    if (legacyStation && skill === "segment") return send(res, 404, { detail: "Not Found" });
    const flightKey = key ?? "";
    inFlight.set(flightKey, (inFlight.get(flightKey) ?? 0) + 1);
    peakInFlight.set(flightKey, Math.max(peakInFlight.get(flightKey) ?? 0, inFlight.get(flightKey)!));
    res.once("close", () => inFlight.set(flightKey, inFlight.get(flightKey)! - 1));
    if (held) {
      const current = held;
      current.waiting += 1;
      await current.gate;
      current.waiting -= 1;
      if (res.destroyed) return;
    }
    if (options.latencyMs) await delay(options.latencyMs);

    // Failure modes.
    const injected = pending.shift();
    if (injected) return fail(injected.status, `Injected failure ${injected.status}`, injected.status === 429 ? { "Retry-After": "1" } : {});
    if (!station && !key) return fail(401, "Missing API key");
    const mode = key ?? "";
    if (mode.startsWith("invalid")) return fail(401, "Invalid API key");
    if (mode.startsWith("hang")) {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (mode.startsWith("error-body")) return send(res, 200, { error: "Model failed to load" });
    if (mode.startsWith("garbage")) {
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<html><body><h1>502 Bad Gateway</h1>nginx</body></html>");
    }
    if (mode.startsWith("wrong-shape")) return send(res, 200, { request_id: requestId(), objects: "none", points: 7, caption: { text: 1 }, answer: null });
    const slow = /^slow-(\d+)/.exec(mode);
    if (slow) await delay(Number(slow[1]));
    const always = /^fail-(\d{3})/.exec(mode);
    if (always) return fail(Number(always[1]), `Failure mode ${always[1]}`, always[1] === "429" ? { "Retry-After": "1" } : {});
    const flaky = /^flaky-(\d{3})-(\d+)/.exec(mode);
    if (flaky) {
      const attempt = (attemptsByKey.get(mode) ?? 0) + 1;
      attemptsByKey.set(mode, attempt);
      if (attempt <= Number(flaky[2])) return fail(Number(flaky[1]), `Flaky failure ${flaky[1]}`, flaky[1] === "429" ? { "Retry-After": "1" } : {});
    }

    // The image.
    let markers: Marker[] = [];
    if (typeof body.image_url === "string") {
      const match = /^data:image\/(jpeg|png|gif);base64,(.*)$/s.exec(body.image_url);
      if (!match) return fail(400, "image_url must be a base64 data URL of a JPEG, PNG or GIF");
      const bytes = Buffer.from(match[2]!, "base64");
      if (bytes.length > MAX_IMAGE_BYTES) return fail(413, "Image too large");
      try {
        markers = analyse ? await findMarkers(bytes) : [FIXED_BOX];
      } catch {
        return fail(400, "Could not decode the image");
      }
    } else if (skill !== "query") {
      return fail(400, "image_url is required");
    }

    const scripted = scripts.get(mode);
    const nextScripted = () => (scripted?.length ? scripted.shift() : undefined);
    switch (skill) {
      case "detect": {
        const settings = (body.settings ?? {}) as { max_objects?: number };
        const found = ofObject(markers, String(body.object ?? "")).slice(0, station ? undefined : (settings.max_objects ?? 50));
        return send(res, 200, { request_id: requestId(), objects: found.map(({ x_min, y_min, x_max, y_max }) => ({ x_min, y_min, x_max, y_max })) });
      }
      case "point": {
        const found = ofObject(markers, String(body.object ?? ""));
        const points = found.map((m) => ({ x: round((m.x_min + m.x_max) / 2), y: round((m.y_min + m.y_max) / 2) }));
        return send(res, 200, station ? { points, count: points.length } : { request_id: requestId(), points });
      }
      case "caption": {
        const text = nextScripted() ?? captionOf(markers, body.length === "long");
        return body.stream ? stream(res, text, station, mode.startsWith("text-stream")) : send(res, 200, { request_id: requestId(), caption: text, finish_reason: "stop" });
      }
      case "query": {
        const text = nextScripted() ?? answerOf(String(body.question ?? ""), markers);
        if (body.reasoning === true) await delay(REASONING_MS);
        const reasoning = body.reasoning === true ? { reasoning: { text: `I looked at each of the ${markers.length} markers in turn.`, grounding: [] } } : {};
        return body.stream ? stream(res, text, station, mode.startsWith("text-stream")) : send(res, 200, { request_id: requestId(), answer: text, ...reasoning });
      }
      case "segment": {
        const refs = Array.isArray(body.spatial_refs) ? (body.spatial_refs as number[][]) : [];
        const found = ofObject(markers, String(body.object ?? ""));
        const seeded = found.find((m) => refs.some(([x = -1, y = -1]) => x >= m.x_min && x <= m.x_max && y >= m.y_min && y <= m.y_max));
        const marker = seeded ?? found[0];
        const bbox = marker ? { x_min: marker.x_min, y_min: marker.y_min, x_max: marker.x_max, y_max: marker.y_max } : { x_min: 0, y_min: 0, x_max: 0, y_max: 0 };
        const path = !marker || mode.startsWith("segment-empty") ? "" : mode.startsWith("segment-outside") ? "M 0.5 0 L 1.6 0.5 L 0.5 1 Z" : FAKE_OUTLINE;
        if (!body.stream) return send(res, 200, { request_id: requestId(), path, bbox });
        res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
        res.write(`data: ${JSON.stringify({ type: "bbox", bbox })}\n\n`);
        for (const piece of path.match(/[MLZ][^MLZ]*/g) ?? []) res.write(`data: ${JSON.stringify({ type: "path_delta", chunk: piece, completed: false })}\n\n`);
        return res.end(`data: ${JSON.stringify({ type: "final", path, bbox, completed: true })}\n\n`);
      }
    }
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: String(error) } });
    });
  });
  // Connections opened to the fake: a client that keeps its connections alive opens a handful, not one a call.
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    url: `${base}/v1`,
    stationUrl: `${base}/station/v1`,
    legacyStationUrl: `${base}/station-legacy/v1`,
    calls,
    script: (key, answers) => void scripts.set(key, [...(scripts.get(key) ?? []), ...answers]),
    failNext: (status, times = 1) => {
      for (let i = 0; i < times; i++) pending.push({ status });
    },
    recover: () => void pending.splice(0),
    hold: () => {
      let release = () => {};
      const current = { gate: new Promise<void>((resolve) => (release = resolve)), waiting: 0 };
      held = current;
      return {
        waiting: () => current.waiting,
        release: () => {
          if (held === current) held = undefined;
          release();
        },
      };
    },
    peakInFlight: (key) => peakInFlight.get(key) ?? 0,
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function ofObject(markers: Marker[], object: string): Marker[] {
  const color = /\b(red|green|blue)\b/i.exec(object)?.[1]?.toLowerCase();
  return color ? markers.filter((m) => m.color === color) : markers;
}

function counts(markers: Marker[]) {
  const n = (color: string) => markers.filter((m) => m.color === color).length;
  return { red: n("red"), green: n("green"), blue: n("blue") };
}

function captionOf(markers: Marker[], long: boolean): string {
  const { red, green, blue } = counts(markers);
  const text = `A test frame with ${red} red, ${green} green and ${blue} blue markers.`;
  return long ? `${text} The markers sit on a soft grey gradient, like props on a quiet stage.` : text;
}

function answerOf(question: string, markers: Marker[]): string {
  const { red, green, blue } = counts(markers);
  if (/scoreboard/i.test(question)) {
    const board = { homeTeam: "Red", homeScore: red, awayTeam: "Blue", awayScore: blue, period: green ? String(green) : null, timeRemaining: null };
    return `Here is what the scoreboard shows:\n\`\`\`json\n${JSON.stringify(board, null, 2)}\n\`\`\`\nLet me know if you need more.`;
  }
  if (/how many people/i.test(question)) return `Roughly ${markers.length} to ${markers.length + 2} people.`;
  if (/target look/i.test(question)) {
    return JSON.stringify({
      exposure: { tip: "Exposure looks balanced.", detail: `Highlights hold detail; the frame has ${markers.length} bright markers.` },
      whiteBalance: "Slightly cool; warm it a little.",
      focus: { tip: "Focus is sharp.", detail: "Edges of the markers are crisp." },
      lighting: { tip: "Add a fill light.", detail: "Shadows on the left are deep." },
      overall: "Close to the target look.",
    });
  }
  return `I see ${markers.length} markers.`;
}

function stream(res: ServerResponse, text: string, station: boolean, textShape = false): void {
  res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  const id = requestId();
  for (const word of text.match(/\S+\s*/g) ?? []) {
    const piece = textShape ? { text: word } : { chunk: word };
    res.write(`data: ${JSON.stringify(station ? piece : { ...piece, completed: false, request_id: id })}\n\n`);
  }
  res.end(`data: ${JSON.stringify(station ? { completed: true } : { chunk: "", completed: true, request_id: id })}\n\n`);
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), "Access-Control-Allow-Origin": "*", ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (v: number) => Math.round(v * 1000) / 1000;
let counter = 0;
const requestId = () => `req_fake_${++counter}`;
