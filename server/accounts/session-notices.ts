// Keeps every process's session cache true. A change to a session or to what a session shows of its user is
// announced with NOTIFY by the very statement that makes it (so only once committed, and never without it), heard
// by every app process on its LISTEN connection; the writing process also forgets at once, before it answers.
import { sql, type RawBuilder } from "kysely";
import { listen } from "#db/listener";
import { config } from "../config";
import { logger } from "../logger";
import { SessionCache, type CacheEntry } from "./session-cache";
import type { Session } from "./session-types";

export const SESSIONS_CHANNEL = "framewise_sessions";
/** ~1 KB each: 10 000 signed-in sessions in ~10 MB; the least recently used go first. */
const MAX_ENTRIES = 10_000;

export interface CachedSession extends CacheEntry {
  session: Session;
  /** Unix ms of the last sliding-expiry write. */
  lastSeenAt: number;
}

let cache: SessionCache<CachedSession> | undefined;
let unlisten: (() => void) | undefined;
let lost = false;

/** The process's session cache, listening for changes from its first use (only app processes read sessions). */
export function sessionCache(): SessionCache<CachedSession> {
  cache ??= new SessionCache<CachedSession>({ ttlMs: config().sessionCacheSeconds * 1000, maxEntries: MAX_ENTRIES });
  const current = cache;
  // Disabled until LISTEN is in effect, and again whenever the connection drops: a notice sent meanwhile is lost.
  if (!unlisten && config().sessionCacheSeconds > 0) {
    unlisten = listen(SESSIONS_CHANNEL, {
      onNotify,
      onListen: () => {
        const wasLost = lost;
        lost = false;
        current.enable();
        if (wasLost) logger.info("session cache back on: changes from every app process are heard again");
      },
      onLost: (reason) => {
        const wasOn = current.enabled;
        current.disable();
        lost ||= reason === "lost";
        if (wasOn && reason === "lost") logger.warn("session cache off until the database connection for notifications is back; sessions are read from PostgreSQL");
      },
    });
  }
  return current;
}

function onNotify(payload: string): void {
  const id = payload.slice(2);
  if (payload.startsWith("s:")) cache?.deleteSession(id);
  else if (payload.startsWith("u:")) cache?.deleteUser(id);
  else cache?.clear();
}

/** SQL announcing the end of a session (its id: the token's hash), for the statement that ends it. */
export const sessionEndedNotice = (sessionId: RawBuilder<unknown>) => sql`pg_notify(${SESSIONS_CHANNEL}, 's:' || ${sessionId})`;

/** SQL announcing a change of the user (role, key, free calls, deletion), for the statement that makes it. */
export const userChangedNotice = (userId: RawBuilder<unknown>) => sql`pg_notify(${SESSIONS_CHANNEL}, 'u:' || ${userId})`;

/** This process forgets at once (its own notice arrives a moment later). */
export function forgetSession(sessionId: string): void {
  cache?.deleteSession(sessionId);
}

export function forgetUser(userId: string): void {
  cache?.deleteUser(userId);
}
