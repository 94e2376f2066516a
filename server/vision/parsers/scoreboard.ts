// Reads a scoreboard out of a model's answer. Models are asked for JSON but wrap it in fences or prose,
// rename fields, nest teams, quote numbers or answer "Home: Lions" lines; whatever is missing is null and
// nothing is ever made up: a score is a whole number that was in the answer, or null.
import type { Scoreboard } from "#app/schemas/vision";
import { cleanText, extractJsonObject, isObject, keyValueLines, normaliseKey, type JsonObject } from "./json-object";

const TEAM_MAX = 48;
const LABEL_MAX = 24;
const MAX_SCORE = 999;

type Field = keyof Scoreboard;

const FIELD_OF_KEY: Record<string, Field> = {
  hometeam: "homeTeam",
  home: "homeTeam",
  homename: "homeTeam",
  hometeamname: "homeTeam",
  team1: "homeTeam",
  hometeamabbreviation: "homeTeam",
  homescore: "homeScore",
  homepoints: "homeScore",
  score1: "homeScore",
  homegoals: "homeScore",
  hometeamscore: "homeScore",
  awayteam: "awayTeam",
  away: "awayTeam",
  awayname: "awayTeam",
  awayteamname: "awayTeam",
  visitor: "awayTeam",
  visitors: "awayTeam",
  visitorteam: "awayTeam",
  guest: "awayTeam",
  guests: "awayTeam",
  team2: "awayTeam",
  awayscore: "awayScore",
  awaypoints: "awayScore",
  score2: "awayScore",
  awaygoals: "awayScore",
  visitorscore: "awayScore",
  guestscore: "awayScore",
  awayteamscore: "awayScore",
  period: "period",
  quarter: "period",
  half: "period",
  periodname: "period",
  currentperiod: "period",
  qtr: "period",
  timeremaining: "timeRemaining",
  time: "timeRemaining",
  clock: "timeRemaining",
  gameclock: "timeRemaining",
  timeleft: "timeRemaining",
  remaining: "timeRemaining",
};

export const EMPTY_SCOREBOARD: Scoreboard = { homeTeam: null, homeScore: null, awayTeam: null, awayScore: null, period: null, timeRemaining: null };

export function parseScoreboard(text: string): Scoreboard {
  const json = extractJsonObject(text);
  const source = json ? unwrap(json) : Object.fromEntries(keyValueLines(text));
  const result = fromFields(source);
  // JSON can spell a number so that its digits are not in the answer (1e1, 0x0A, a repaired fragment):
  // a score must be written out in the answer, or it is unknown.
  for (const side of ["homeScore", "awayScore"] as const) {
    if (result[side] !== null && !new RegExp(`(?<!\\d)0*${result[side]}(?!\\d)`).test(text)) result[side] = null;
  }
  return result;
}

/** {"scoreboard": {...}} or {"result": {...}} → the inner object, when the outer has none of our fields. */
function unwrap(object: JsonObject): JsonObject {
  const known = Object.keys(object).some((key) => normaliseKey(key) in FIELD_OF_KEY);
  if (known) return object;
  const inner = Object.values(object).find(isObject);
  return inner ?? object;
}

function fromFields(source: JsonObject): Scoreboard {
  const result: Scoreboard = { ...EMPTY_SCOREBOARD };
  for (const [key, value] of Object.entries(source)) {
    const field = FIELD_OF_KEY[normaliseKey(key)];
    if (!field || result[field] !== null) continue;
    // {"home": {"name": "Lions", "score": 3}}
    if (isObject(value) && (field === "homeTeam" || field === "awayTeam")) {
      const side = field === "homeTeam" ? "home" : "away";
      const entries = Object.fromEntries(Object.entries(value).map(([k, v]) => [normaliseKey(k), v]));
      result[field] = cleanText(entries.name ?? entries.team ?? entries.teamname ?? entries.abbreviation, TEAM_MAX);
      result[`${side}Score`] ??= score(entries.score ?? entries.points ?? entries.goals);
      continue;
    }
    switch (field) {
      case "homeTeam":
      case "awayTeam":
        result[field] = cleanText(value, TEAM_MAX);
        break;
      case "homeScore":
      case "awayScore":
        result[field] = score(value);
        break;
      case "period":
      case "timeRemaining":
        result[field] = cleanText(value, LABEL_MAX);
        break;
    }
  }
  return result;
}

/** A score is a whole number 0–999, as a number or as digits alone in a string; anything else is unknown. */
function score(value: unknown): number | null {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 && value <= MAX_SCORE ? value : null;
  if (typeof value !== "string") return null;
  const digits = /^\s*(\d{1,3})\s*$/.exec(value);
  return digits ? Number(digits[1]) : null;
}
