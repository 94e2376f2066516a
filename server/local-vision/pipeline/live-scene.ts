// The server's live scene of a watched camera for the studio (issue 30): Server-Sent Events of its confirmed tracks,
// line counts and zone occupancy after each frame the pipeline steps, so the studio draws what the server sees and
// runs no second detector. Whichever process the browser reaches answers: the pipeline's own process from memory, any
// other through the pipeline's process's relay (the signed internal address camera streams use, decision 0008).
import type { ServerResponse } from "node:http";
import { pipelineHolder } from "../../cameras/stream/presence";
import { relayPath, signRelayRequest } from "../../cameras/stream/relay";
import type { LiveScene, RunningPipeline } from "./camera-pipeline";

/** How often a stream with no pipeline anywhere (starting, moving after a process died) looks again. */
const LOOK_AGAIN_MS = 2_000;
const KEEP_ALIVE_MS = 15_000;
const encoder = new TextEncoder();

export interface SceneSource {
  /** The pipeline running the camera in this process, if it does. */
  running(cameraId: string): RunningPipeline | undefined;
}

const sceneEvent = (scene: LiveScene) => `event: scene\ndata: ${JSON.stringify(scene)}\n\n`;

/** Until `signal` aborts or the pipeline stops: each scene of the pipeline, as SSE text. */
function followPipeline(pipeline: RunningPipeline, write: (text: string) => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const latest = pipeline.live();
    if (latest) write(sceneEvent(latest));
    const off = pipeline.onScene((scene) => write(sceneEvent(scene)));
    const end = () => {
      off();
      signal.removeEventListener("abort", end);
      resolve();
    };
    signal.addEventListener("abort", end, { once: true });
    void pipeline.done.then(end);
  });
}

/** Until `signal` aborts or the relay ends: the pipeline's process's scene stream, passed through. */
async function followRelay(relayUrl: string, userId: string, cameraId: string, write: (text: string) => void, signal: AbortSignal): Promise<void> {
  const path = relayPath(userId, cameraId, "scene");
  const response = await fetch(`${relayUrl}${path}`, { headers: { authorization: signRelayRequest(path) }, signal }).catch(() => null);
  if (!response?.ok || !response.body) return;
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      write(decoder.decode(value, { stream: true }));
    }
  } catch {
    // the relay or this stream ended: the caller looks again
  }
}

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** The SSE answer of GET /api/cameras/{id}/watch/live (the camera is the user's, checked by the caller). */
export function openSceneStream(source: SceneSource, userId: string, cameraId: string, signal: AbortSignal): Response {
  const ended = new AbortController();
  signal.addEventListener("abort", () => ended.abort(), { once: true });
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const write = (text: string) => {
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      ended.abort(); // the reader went away
    }
  };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => ended.abort(),
  });
  const keepAlive = setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS);
  void (async () => {
    write("retry: 1000\n\n");
    while (!ended.signal.aborted) {
      const here = source.running(cameraId);
      if (here) {
        await followPipeline(here, write, ended.signal);
        await pause(250, ended.signal); // its supervisor lets it go, or starts it again
        continue;
      }
      const relay = await pipelineHolder(cameraId).catch(() => null);
      if (relay) await followRelay(relay, userId, cameraId, write, ended.signal);
      else write(`event: waiting\ndata: {}\n\n`);
      await pause(LOOK_AGAIN_MS, ended.signal);
    }
  })().finally(() => {
    clearInterval(keepAlive);
    try {
      controller.close();
    } catch {
      // already closed
    }
  });
  return new Response(stream, {
    headers: { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform", "X-Accel-Buffering": "no", Connection: "close" },
  });
}

/** The relay's side: this process's pipeline of the camera as SSE, for another process's studio stream; 404 when it runs elsewhere. */
export function serveSceneRelay(source: SceneSource, res: ServerResponse, userId: string, cameraId: string, closed: AbortSignal): void {
  const pipeline = source.running(cameraId);
  if (!pipeline || pipeline.settings.userId !== userId) return void res.writeHead(404).end();
  res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store" });
  void followPipeline(pipeline, (text) => res.write(text), closed).then(() => res.end());
}
