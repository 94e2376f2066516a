// The live scoreboard as Server-Sent Events: the full state on connect, then every new reading, with a
// keep-alive comment so idle proxies keep the connection. `retry` asks browsers to reconnect within a second.
import type { LiveScoreboard } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { stopListening, subscribe } from "./feed";
import { findLiveScoreboard } from "./store";

const KEEP_ALIVE_MS = 15_000;
const RECONNECT_MS = 1000;
const encoder = new TextEncoder();

/** Open streams, so shutdown can end them (a server waiting on open SSE connections never closes). */
const open = new Set<() => void>();

export const liveHeaders = {
  "Access-Control-Allow-Origin": "*",
  // no-transform keeps the compression middleware from buffering the stream.
  "Cache-Control": "no-store, no-transform",
};

export async function openLiveStream(db: DB, userId: string, signal: AbortSignal): Promise<Response> {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let lastVersion = -1;
  const timers: { keepAlive?: NodeJS.Timeout } = {};
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => close(),
  });
  const write = (text: string) => {
    try {
      controller.enqueue(encoder.encode(text));
    } catch {
      close(); // the stream is already closed
    }
  };
  const send = (live: LiveScoreboard) => {
    if (live.version <= lastVersion) return; // an older reading arriving late, e.g. a re-read after reconnecting
    lastVersion = live.version;
    write(`id: ${live.version}\ndata: ${JSON.stringify(live)}\n\n`);
  };
  // Subscribe before reading, so a reading committed in between is not missed (versions drop duplicates).
  const unsubscribe = subscribe(userId, send);
  let closed = false;
  function close() {
    if (closed) return;
    closed = true;
    unsubscribe();
    clearInterval(timers.keepAlive);
    open.delete(close);
    signal.removeEventListener("abort", close);
    try {
      controller.close();
    } catch {
      // already closed by the reader
    }
  }

  let initial: LiveScoreboard;
  try {
    initial = await findLiveScoreboard(db, userId);
  } catch (error) {
    close();
    throw error;
  }
  write(`retry: ${RECONNECT_MS}\n\n`);
  send(initial);
  timers.keepAlive = setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS);
  open.add(close);
  if (signal.aborted) close();
  else signal.addEventListener("abort", close, { once: true });

  return new Response(stream, {
    // Connection: close, so a stream ended at shutdown takes its socket with it instead of idling in keep-alive.
    headers: { ...liveHeaders, "Content-Type": "text/event-stream; charset=utf-8", "X-Accel-Buffering": "no", Connection: "close" },
  });
}

/** Ends every open stream and stops listening: browsers reconnect, to this server's successor or another. */
export async function closeLiveStreams(): Promise<void> {
  for (const close of [...open]) close();
  stopListening();
}
