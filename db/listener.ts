// One LISTEN connection per process, shared by every channel (live scoreboard, session invalidation), that tells
// its subscribers when it is lost and when it listens again: notifications sent meanwhile are gone for good, so a
// subscriber that caches must stop trusting its cache until then. postgres.js's own listen() re-listens by itself
// but says nothing when the connection drops, hence this.
import postgres, { type Sql } from "postgres";
import { databaseUrl } from "./index";

export interface ChannelHandlers {
  onNotify(payload: string): void;
  /** Called once LISTEN is in effect, at first and after every reconnection. */
  onListen?(): void;
  /** Called when the connection is lost (or LISTEN failed) or closed: notifications may be missed until the next onListen. */
  onLost?(reason: "lost" | "stopped"): void;
}

/** Retries after a lost connection: quick at first (a killed backend), then every second (a restarting server). */
const retryDelayMs = (attempt: number) => Math.min(1000, 50 * 2 ** attempt);
/** LISTEN on a dying connection may never settle in postgres.js 3.4.9 (see db/index.ts): give up on it after this. */
const LISTEN_TIMEOUT_MS = 10_000;

const channels = new Map<string, Set<ChannelHandlers>>();
let client: Sql | undefined;
let state: "idle" | "connecting" | "listening" = "idle";
let attempt = 0;
let retryTimer: NodeJS.Timeout | undefined;
let stopped = false;

/** Subscribes to a channel until the returned function is called; starts the connection on first use. */
export function listen(channel: string, handlers: ChannelHandlers): () => void {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
  let set = channels.get(channel);
  const isNew = !set;
  if (!set) channels.set(channel, (set = new Set()));
  set.add(handlers);
  stopped = false;
  if (state === "idle") connect();
  else if (state === "listening" && isNew) {
    // A channel added to a live connection: listening for it is one more statement on the same connection.
    const current = client!;
    current.unsafe(`listen "${channel}"`).then(
      () => current === client && handlers.onListen?.(),
      () => current === client && lose(current),
    );
  } else if (state === "listening") queueMicrotask(() => handlers.onListen?.());
  return () => {
    set.delete(handlers);
    if (set.size === 0) channels.delete(channel);
  };
}

/** Whether LISTEN is in effect now (notifications are being received). */
export function isListening(): boolean {
  return state === "listening";
}

function connect(): void {
  state = "connecting";
  const current = postgres(databaseUrl(), {
    max: 1,
    idle_timeout: 0, // 0: never closed for idleness or age
    max_lifetime: 0,
    connect_timeout: 5,
    fetch_types: false,
    // Named, so an operator (and a test) can tell this connection from the pool's in pg_stat_activity.
    connection: { application_name: `framewise-listen-${process.pid}` },
    onnotice: () => {},
    // Not in postgres.js's option types, but what its own listen() connection uses for NotificationResponse.
    ...({
      onnotify: (channel: string, payload: string) => {
        if (current !== client) return;
        for (const handlers of channels.get(channel) ?? []) handlers.onNotify(payload);
      },
    } as object),
    onclose: () => {
      if (current === client) lose(current);
    },
  });
  client = current;
  void listenOn(current, new Set());
}

/** LISTENs for every channel not yet in `done` (one added while connecting too), then tells their subscribers. */
async function listenOn(current: Sql, done: Set<string>): Promise<void> {
  const names = [...channels.keys()].filter((name) => !done.has(name));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("LISTEN unanswered")), LISTEN_TIMEOUT_MS);
  });
  try {
    await Promise.race([current.unsafe(names.map((name) => `listen "${name}"`).join(";") || "select 1"), timeout]);
  } catch {
    if (current === client) lose(current);
    return;
  } finally {
    clearTimeout(timer);
  }
  if (current !== client) return;
  for (const name of names) done.add(name);
  if ([...channels.keys()].some((name) => !done.has(name))) return listenOn(current, done);
  state = "listening";
  attempt = 0;
  for (const name of done) for (const handlers of channels.get(name) ?? []) handlers.onListen?.();
}

/** The connection is gone (or never listened): tell every subscriber, drop it, and try again on a fresh one. */
function lose(lost: Sql): void {
  client = undefined;
  state = "idle";
  void lost.end({ timeout: 0 }).catch(() => {});
  for (const set of channels.values()) for (const handlers of set) handlers.onLost?.("lost");
  if (stopped || channels.size === 0) return;
  state = "connecting";
  retryTimer = setTimeout(() => {
    retryTimer = undefined;
    if (stopped) state = "idle";
    else connect();
  }, retryDelayMs(attempt++));
  retryTimer.unref();
}

/** Closes the connection and forgets every subscriber (at shutdown, before the pool closes). */
export async function stopListening(): Promise<void> {
  stopped = true;
  clearTimeout(retryTimer);
  retryTimer = undefined;
  const current = client;
  client = undefined;
  state = "idle";
  attempt = 0;
  const subscribers = [...channels.values()].flatMap((set) => [...set]);
  channels.clear();
  for (const handlers of subscribers) handlers.onLost?.("stopped");
  await current?.end({ timeout: 1 }).catch(() => {});
}
