// The public live scoreboard: the last reading as JSON, the OBS overlay page, and its event stream.
import type { LiveScoreboard } from "../../app/schemas/vision";
import type { DB } from "../../db/index";
import { notFound } from "../http/api";
import { overlayPage } from "./overlay-page";
import { findLiveScoreboard } from "./store";

export { openLiveStream } from "./live-stream";

export async function getLiveScoreboard(db: DB, userId: string): Promise<LiveScoreboard> {
  const live = await findLiveScoreboard(db, userId);
  if (!live) throw notFound("Scoreboard");
  return live;
}

export async function liveOverlayHtml(db: DB, userId: string, nonce: string): Promise<string> {
  return overlayPage(await getLiveScoreboard(db, userId), nonce);
}
