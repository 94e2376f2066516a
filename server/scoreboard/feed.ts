// Fans new scoreboard readings out to this server's live streams. On the process's one LISTEN connection
// (db/listener.ts, which re-listens after a lost connection), so a reading saved through any app server reaches
// overlays connected to every other one.
import type { LiveScoreboard } from "#app/schemas/vision";
import { db } from "#db/index";
import { listen } from "#db/listener";
import { logger } from "../logger";
import { SCOREBOARD_CHANNEL, findLiveScoreboard, type ReadingNotice } from "./store";

export type ReadingListener = (live: LiveScoreboard) => void;

const listeners = new Map<string, Set<ReadingListener>>();
let unlisten: (() => void) | undefined;

/** Calls `listener` with every new reading of this user until the returned function is called. */
export function subscribe(userId: string, listener: ReadingListener): () => void {
  unlisten ??= listen(SCOREBOARD_CHANNEL, { onNotify, onListen });
  let set = listeners.get(userId);
  if (!set) listeners.set(userId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(userId);
  };
}

function onNotify(payload: string): void {
  let notice: ReadingNotice;
  try {
    notice = JSON.parse(payload) as ReadingNotice;
  } catch {
    return;
  }
  for (const listener of listeners.get(notice.userId) ?? []) listener(notice.live);
}

/** On (re)connect: notifications sent while the connection was down are lost, so re-read what overlays show. */
function onListen(): void {
  for (const userId of listeners.keys()) {
    findLiveScoreboard(db(), userId).then(
      (live) => {
        for (const listener of listeners.get(userId) ?? []) listener(live);
      },
      (error: unknown) => logger.warn({ err: error }, "could not refresh a live scoreboard after reconnecting"),
    );
  }
}

/** Stops listening (at shutdown, before the pool closes). */
export function stopListening(): void {
  unlisten?.();
  unlisten = undefined;
  listeners.clear();
}
