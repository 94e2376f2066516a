// The last scoreboard reading per user, in PostgreSQL so every app server agrees. Saving a reading and
// announcing it (NOTIFY) happen in one transaction: listeners hear of it only once it is committed.
import type { Selectable } from "kysely";
import { scoreboardLabel } from "#app/lib/scoreboard";
import type { LiveScoreboard, Scoreboard } from "#app/schemas/vision";
import type { DB } from "#db/index";
import type { ScoreboardReadingsTable, Sport } from "#db/schema";
import * as q from "./queries";

export const SCOREBOARD_CHANNEL = "scoreboard_readings";

/** A notification: whose reading and the reading itself (a few hundred bytes, well under NOTIFY's 8000). */
export interface ReadingNotice {
  userId: string;
  live: LiveScoreboard;
}

export const NO_READING: LiveScoreboard = {
  sport: null,
  homeTeam: null,
  homeScore: null,
  awayTeam: null,
  awayScore: null,
  period: null,
  timeRemaining: null,
  periodLabel: "LIVE",
  updatedAt: null,
  version: 0,
};

function toLive(row: Selectable<ScoreboardReadingsTable>): LiveScoreboard {
  return {
    sport: row.sport,
    homeTeam: row.home_team,
    homeScore: row.home_score,
    awayTeam: row.away_team,
    awayScore: row.away_score,
    period: row.period,
    timeRemaining: row.time_remaining,
    periodLabel: scoreboardLabel(row.sport, row.period, row.time_remaining),
    updatedAt: row.updated_at.toISOString(),
    version: Number(row.version),
  };
}

export async function saveReading(db: DB, userId: string, sport: Sport, reading: Scoreboard): Promise<LiveScoreboard> {
  const values = {
    sport,
    home_team: reading.homeTeam,
    home_score: reading.homeScore,
    away_team: reading.awayTeam,
    away_score: reading.awayScore,
    period: reading.period,
    time_remaining: reading.timeRemaining,
  };
  return db.transaction().execute(async (trx) => {
    const row = await q.upsertReading(trx, userId, values);
    const live = toLive(row);
    const notice: ReadingNotice = { userId, live };
    await q.notify(trx, SCOREBOARD_CHANNEL, JSON.stringify(notice));
    return live;
  });
}

/**
 * The user's live scoreboard, NO_READING before the first reading. An unknown user id gets NO_READING too, by
 * the same one query: the public overlay must not tell whether an account exists.
 */
export async function findLiveScoreboard(db: DB, userId: string): Promise<LiveScoreboard> {
  const row = await q.findReading(db, userId);
  return row ? toLive(row) : NO_READING;
}
