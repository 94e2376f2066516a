// The live scoreboard: reading a frame of it with Moondream (which the public board then shows), and the public
// board itself: the last reading as JSON, the OBS overlay page, and its event stream.
import type { LiveScoreboard, Scoreboard, ScoreboardRequest } from "#app/schemas/vision";
import type { DB } from "#db/index";
import { readScoreboard as readFrame, type FrameCall, type Vision } from "../vision/service";
import { overlayPage } from "./overlay-page";
import { findLiveScoreboard, saveReading } from "./store";

export { openLiveStream } from "./live-stream";

/** The live board; an unknown user's is the same empty "LIVE" board as a new user's. */
export function getLiveScoreboard(db: DB, userId: string): Promise<LiveScoreboard> {
  return findLiveScoreboard(db, userId);
}

export async function liveOverlayHtml(db: DB, userId: string, nonce: string): Promise<string> {
  return overlayPage(await getLiveScoreboard(db, userId), nonce);
}

/** Reads the scoreboard in the frame and, when anything was readable, makes it the user's live scoreboard. */
export async function readScoreboard(db: DB, vision: Vision, call: FrameCall<ScoreboardRequest>, signal?: AbortSignal): Promise<{ scoreboard: Scoreboard }> {
  const { scoreboard } = await readFrame(db, vision, call, signal);
  // A frame where nothing could be read (a cut-away, a blurred board) must not blank the overlay.
  if (Object.values(scoreboard).some((value) => value !== null)) await saveReading(db, call.session.user.id, call.input.sport, scoreboard);
  return { scoreboard };
}
