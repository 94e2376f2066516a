// Fans new scoreboard readings out to this server's live streams. One LISTEN per process (postgres.js
// keeps it on a dedicated connection and re-listens after a lost connection), so a reading saved through
// any app server reaches overlays connected to every other one.
import type { LiveScoreboard } from "#app/schemas/vision";
import { db, sqlClient } from "#db/index";
import { logger } from "../logger";
import { SCOREBOARD_CHANNEL, findLiveScoreboard, type ReadingNotice } from "./store";

export type ReadingListener = (live: LiveScoreboard) => void;

const listeners = new Map<string, Set<ReadingListener>>();
let listening: Promise<{ unlisten: () => Promise<void> }> | undefined;

/** Calls `listener` with every new reading of this user until the returned function is called. */
export function subscribe(userId: string, listener: ReadingListener): () => void {
  ensureListening();
  let set = listeners.get(userId);
  if (!set) listeners.set(userId, (set = new Set()));
  set.add(listener);
  return () => {
    set.delete(listener);
    if (set.size === 0) listeners.delete(userId);
  };
}

function ensureListening(): void {
  listening ??= sqlClient()
    .listen(SCOREBOARD_CHANNEL, onNotify, onListen)
    .catch((error: unknown) => {
      logger.error({ err: error }, "scoreboard LISTEN failed; live overlays get updates after the next connection");
      listening = undefined;
      throw error;
    });
  listening.catch(() => {}); // handled above; streams still send the state they read on connect
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
export async function stopListening(): Promise<void> {
  const current = listening;
  listening = undefined;
  listeners.clear();
  await current?.then((meta) => meta.unlisten()).catch(() => {});
}
