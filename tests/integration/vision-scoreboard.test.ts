// The public live scoreboard: JSON feed, OBS overlay page and its event stream, across app servers.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NO_READING } from "#server/scoreboard/store";
import { signUpUser, type TestUser } from "../support/client";
import { openEvents } from "../support/sse";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

let stack: VisionStack;
let frame: string;
/** The shared app: another server on the same database, with no Moondream endpoint of its own. */
const otherServer = inject("baseUrl");

beforeAll(async () => {
  stack = await startVisionStack();
  frame = await markerFrame();
});
afterAll(() => stack.stop());

async function streamer(): Promise<TestUser & { key: string }> {
  const user = await signUpUser({ baseUrl: stack.url });
  const key = `live-${user.id}`;
  await user.client.post("/api/moondream/api-key", { apiKey: key });
  return { ...user, key };
}

async function postReading(user: TestUser & { key: string }, answer: object, sport = "basketball") {
  stack.fake.script(user.key, [`\`\`\`json\n${JSON.stringify(answer)}\n\`\`\``]);
  const response = await user.client.post("/api/moondream/scoreboard", { imageData: frame, sport });
  expect(response.status).toBe(200);
  return response.json();
}

describe("GET /api/scoreboard/live.json", () => {
  it("is public, CORS-open, never cached, and embeddable from other sites", async () => {
    const user = await streamer();
    const response = await fetch(`${stack.url}/api/scoreboard/live.json?userId=${user.id}`, { headers: { origin: "https://obs.example" } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(NO_READING);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cache-control")).toContain("no-store");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");

    await postReading(user, { homeTeam: "Lakers", homeScore: 98, awayTeam: "Celtics", awayScore: 95, period: "4", timeRemaining: "2:31" });
    expect(await (await fetch(`${otherServer}/api/scoreboard/live.json?userId=${user.id}`)).json()).toMatchObject({
      sport: "basketball",
      homeTeam: "Lakers",
      homeScore: 98,
      awayTeam: "Celtics",
      awayScore: 95,
      period: "4",
      timeRemaining: "2:31",
      periodLabel: "Q4 2:31",
      version: 1,
    });
  });

  it("answers an unknown user with the empty board (accounts stay private), a malformed id with 404, none with 400", async () => {
    const unknown = await fetch(`${stack.url}/api/scoreboard/live.json?userId=00000000-0000-4000-8000-000000000000`);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual(NO_READING);
    for (const userId of ["not-a-uuid", "1%20or%201=1"]) {
      const response = await fetch(`${stack.url}/api/scoreboard/live.json?userId=${userId}`);
      expect(response.status, userId).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    expect((await fetch(`${stack.url}/api/scoreboard/live.json`)).status).toBe(400);
  });
});

describe("GET /api/scoreboard/live.html", () => {
  it("is a transparent page whose only script carries the CSP nonce, with team names as text", async () => {
    const user = await streamer();
    await postReading(
      user,
      { homeTeam: '<img src=x onerror="alert(1)">', homeScore: 1, awayTeam: "</script><script>alert(2)</script>", awayScore: 0, period: "2", timeRemaining: null },
      "soccer",
    );
    const response = await fetch(`${stack.url}/api/scoreboard/live.html?userId=${user.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toContain("no-store");
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy")!)![1]!;
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual([`<script nonce="${nonce}">`]);
    expect(html).not.toContain("<img");
    expect(html).toContain("&#60;/script&#62;&#60;script&#62;alert(2)&#60;/script&#62;");
    expect(html).toContain(">2nd Half<");
    expect(html).toMatch(/background: transparent/);
  });
});

describe("GET /api/scoreboard/events", () => {
  it("sends the full state on connect, then each new reading from any app server within a second", async () => {
    const user = await streamer();
    await postReading(user, { homeTeam: "Lions", homeScore: 7, awayTeam: "Bears", awayScore: 3, period: "1", timeRemaining: "10:00" }, "football");
    const here = await openEvents(`${stack.url}/api/scoreboard/events?userId=${user.id}`);
    const there = await openEvents(`${otherServer}/api/scoreboard/events?userId=${user.id}`);
    try {
      for (const events of [here, there]) {
        expect(events.response.headers.get("content-type")).toContain("text/event-stream");
        expect(events.response.headers.get("access-control-allow-origin")).toBe("*");
        const first = await events.next();
        expect(first.id).toBe("1");
        expect(JSON.parse(first.data)).toMatchObject({ homeTeam: "Lions", homeScore: 7, periodLabel: "Q1 10:00", version: 1 });
      }
      await postReading(user, { homeTeam: "Lions", homeScore: 14, awayTeam: "Bears", awayScore: 3, period: "2", timeRemaining: "4:12" }, "football");
      for (const events of [here, there]) {
        const update = await events.next(1_000);
        expect(update.id).toBe("2");
        expect(JSON.parse(update.data)).toMatchObject({ homeScore: 14, periodLabel: "Q2 4:12", version: 2 });
      }
    } finally {
      here.close();
      there.close();
    }
  });

  it("gives a reconnecting client the current state again", async () => {
    const user = await streamer();
    await postReading(user, { homeTeam: "A", homeScore: 1, awayTeam: "B", awayScore: 2 });
    for (let i = 0; i < 2; i++) {
      const events = await openEvents(`${otherServer}/api/scoreboard/events?userId=${user.id}`, { headers: { "last-event-id": "1" } });
      expect(JSON.parse((await events.next()).data)).toMatchObject({ homeTeam: "A", awayScore: 2, periodLabel: "LIVE" });
      events.close();
    }
  });

  it("ends open streams when the server shuts down, so it exits cleanly and at once", async () => {
    const user = await streamer();
    const temporary = await startVisionStack({}, stack.fake);
    const events = await openEvents(`${temporary.url}/api/scoreboard/events?userId=${user.id}`);
    await events.next();
    const started = performance.now();
    const exitCode = await temporary.app.stop();
    expect(exitCode, temporary.app.logs.slice(-15).join("\n")).toBe(0);
    expect(performance.now() - started).toBeLessThan(5_000);
    await expect(events.next()).rejects.toThrow(/ended|terminated|aborted/);
  });
});
