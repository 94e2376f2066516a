// The public live scoreboard: the last reading as JSON, the OBS overlay page, and its event stream.
import type { LiveScoreboard } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { overlayPage } from "./overlay-page";
import { findLiveScoreboard } from "./store";

export { openLiveStream } from "./live-stream";

/** The live board; an unknown user's is the same empty "LIVE" board as a new user's. */
export function getLiveScoreboard(db: DB, userId: string): Promise<LiveScoreboard> {
  return findLiveScoreboard(db, userId);
}

export async function liveOverlayHtml(db: DB, userId: string, nonce: string): Promise<string> {
  return overlayPage(await getLiveScoreboard(db, userId), nonce);
}
