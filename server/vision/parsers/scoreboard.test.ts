import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Scoreboard } from "#app/schemas/vision";
import { EMPTY_SCOREBOARD, parseScoreboard } from "./scoreboard";

describe("parseScoreboard", () => {
  it("reads fenced JSON with prose around it", () => {
    const answer =
      'Sure! Here is the scoreboard:\n```json\n{"homeTeam": "Lions", "homeScore": 21, "awayTeam": "Bears", "awayScore": 14, "period": "3", "timeRemaining": "8:42"}\n```\nHope that helps.';
    expect(parseScoreboard(answer)).toEqual({ homeTeam: "Lions", homeScore: 21, awayTeam: "Bears", awayScore: 14, period: "3", timeRemaining: "8:42" });
  });

  it("accepts snake_case, quoted numbers, nesting, Python literals and a cut-off answer", () => {
    expect(parseScoreboard(`{'home_team': 'LAL', 'home_score': '98', 'away_team': 'BOS', 'away_score': None, 'quarter': 4, 'clock': '2:31'`)).toEqual({
      homeTeam: "LAL",
      homeScore: 98,
      awayTeam: "BOS",
      awayScore: null,
      period: "4",
      timeRemaining: "2:31",
    });
    expect(parseScoreboard('{"scoreboard": {"home": {"name": "Ajax", "score": 2}, "away": {"name": "PSV", "score": 0}, "half": "2nd"}}')).toEqual({
      homeTeam: "Ajax",
      homeScore: 2,
      awayTeam: "PSV",
      awayScore: 0,
      period: "2nd",
      timeRemaining: null,
    });
  });

  it("reads Key: value lines when there is no JSON", () => {
    expect(parseScoreboard("- **Home team:** Eagles\n- Home score: 7\n- Away team: Giants\n- Away score: 10\n- Period: Q2")).toEqual({
      homeTeam: "Eagles",
      homeScore: 7,
      awayTeam: "Giants",
      awayScore: 10,
      period: "Q2",
      timeRemaining: null,
    });
  });

  it("leaves what it cannot read as null, and never keeps a score that is not a whole number in the answer", () => {
    expect(parseScoreboard("I cannot see a scoreboard in this image.")).toEqual(EMPTY_SCOREBOARD);
    expect(parseScoreboard('{"homeTeam": "N/A", "homeScore": "three", "awayScore": 2.5, "period": null}')).toEqual(EMPTY_SCOREBOARD);
    expect(parseScoreboard('{"homeScore": 1e1, "awayScore": -3}')).toEqual(EMPTY_SCOREBOARD);
    expect(parseScoreboard('{"homeTeam": "<img src=x onerror=alert(1)>"}').homeTeam).toBe("<img src=x onerror=alert(1)>"); // escaping is the renderer's job
  });

  const teamName = fc.constantFrom("Lions", "Bears", "Real Madrid", "FC Barcelona", "LA Lakers", "49ers", "Team Ä", "Sharks");
  const board: fc.Arbitrary<Scoreboard> = fc.record({
    homeTeam: fc.option(teamName, { nil: null }),
    homeScore: fc.option(fc.nat(999), { nil: null }),
    awayTeam: fc.option(teamName, { nil: null }),
    awayScore: fc.option(fc.nat(999), { nil: null }),
    period: fc.option(fc.constantFrom("1", "2", "3", "4", "OT", "2nd", "Q3"), { nil: null }),
    timeRemaining: fc.option(fc.constantFrom("12:00", "0:42", "45+2", "8:05"), { nil: null }),
  });
  const KEY_STYLES: Record<keyof Scoreboard, string[]> = {
    homeTeam: ["homeTeam", "home_team", "Home Team"],
    homeScore: ["homeScore", "home_score", "Home Score"],
    awayTeam: ["awayTeam", "away_team", "visitor"],
    awayScore: ["awayScore", "away_score", "visitor_score"],
    period: ["period", "quarter"],
    timeRemaining: ["timeRemaining", "time_remaining", "clock"],
  };

  it("reads any scoreboard back, whatever the key style, quoting, wrapping or missing fields", () => {
    fc.assert(
      fc.property(
        board,
        fc.nat(2),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom("", "Here you go:\n", "The scoreboard reads as follows. "),
        fc.constantFrom("", "\nLet me know!", " (some values were hard to read)"),
        fc.constantFrom<"fence" | "plain" | "fence-bare">("fence", "plain", "fence-bare"),
        (expected, style, quoteNumbers, dropNulls, before, after, wrap) => {
          const object: Record<string, unknown> = {};
          for (const [field, value] of Object.entries(expected) as Array<[keyof Scoreboard, string | number | null]>) {
            if (value === null && dropNulls) continue;
            object[KEY_STYLES[field][style % KEY_STYLES[field].length]!] = typeof value === "number" && quoteNumbers ? String(value) : value;
          }
          const json = JSON.stringify(object, null, style === 1 ? 2 : undefined);
          const body = wrap === "fence" ? `\`\`\`json\n${json}\n\`\`\`` : wrap === "fence-bare" ? `\`\`\`\n${json}\n\`\`\`` : json;
          expect(parseScoreboard(`${before}${body}${after}`)).toEqual(expected);
        },
      ),
    );
  });

  it("never throws on messy answers, and never invents a score", () => {
    const messy = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.json().map((j) => `Answer: ${j}`),
      fc.jsonValue().map((v) => "```json\n" + JSON.stringify({ homeScore: v, awayTeam: v, period: v }) + "\n```"),
      fc.string({ maxLength: 60 }).map((s) => `{"homeTeam": "${s}", "homeScore": ${s.length}`),
    );
    fc.assert(
      fc.property(messy, (answer) => {
        const result = parseScoreboard(answer);
        for (const side of ["homeScore", "awayScore"] as const) {
          const score = result[side];
          if (score === null) continue;
          expect(Number.isInteger(score) && score >= 0 && score <= 999).toBe(true);
          expect(answer).toMatch(new RegExp(`(?<!\\d)0*${score}(?!\\d)`));
        }
        for (const text of [result.homeTeam, result.awayTeam, result.period, result.timeRemaining]) {
          if (text !== null) expect(text.trim()).toBe(text);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
