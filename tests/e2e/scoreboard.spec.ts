// The OBS overlay in a real browser: live.html follows new scoreboard readings over Server-Sent Events,
// from another app server of the same deployment, and keeps following after its connection drops.
import type { APIRequestContext } from "@playwright/test";
import { markerImage, toDataUrl } from "../fakes/moondream/images";
import { freePort, startApp, tempDir, type TestApp } from "../support/stack";
import { expect, test, uniqueUsername } from "./fixtures";

interface Streamer {
  id: string;
  key: string;
}

/** A user with their own key, so the fake's scripted answers are theirs alone. */
async function signUpStreamer(request: APIRequestContext): Promise<Streamer> {
  const signup = await request.post("/api/auth/signup", { data: { username: uniqueUsername("live"), password: "secret-pass" } });
  expect(signup.status()).toBe(201);
  const { id } = (await signup.json()) as { id: string };
  const key = `e2e-live-${id}`;
  expect((await request.post("/api/moondream/api-key", { data: { apiKey: key } })).status()).toBe(200);
  return { id, key };
}

let frame: string;
test.beforeAll(async () => {
  frame = toDataUrl(await markerImage());
});

/** Makes the fake read this scoreboard from the next frame, then posts a frame as the studio would. */
async function postReading(request: APIRequestContext, streamer: Streamer, board: Record<string, unknown>, sport = "basketball") {
  const control = new URL("/__fake/script", process.env.E2E_MOONDREAM_ENDPOINT).toString();
  expect((await request.post(control, { data: { key: streamer.key, answers: [`\`\`\`json\n${JSON.stringify(board)}\n\`\`\``] } })).ok()).toBe(true);
  const response = await request.post("/api/moondream/scoreboard", { data: { imageData: frame, sport } });
  expect(response.status()).toBe(200);
}

test.describe("live.html", () => {
  // While the second server restarts, the browser's reconnection attempts fail; that is the point.
  test.use({ allowConsoleErrors: [/net::ERR_CONNECTION_REFUSED/] });

  test("updates when a new reading is posted, and again after the event stream drops", async ({ page, request }) => {
    const streamer = await signUpStreamer(request);
    await postReading(request, streamer, { homeTeam: "Lakers", homeScore: 98, awayTeam: "Celtics", awayScore: 95, period: "4", timeRemaining: "2:31" });

    // The overlay is served by a second app server on the same database; readings go through the first.
    const port = await freePort();
    const env = { DATABASE_URL: process.env.E2E_DATABASE_URL, DATA_DIR: tempDir("e2e-second"), PORT: String(port) };
    let second: TestApp = await startApp(env);
    // Every (re)connection of the overlay's event stream. "Live" means a reading arrives over the stream
    // that is already open: counting connections proves that without a deadline a busy machine can miss.
    let streams = 0;
    page.on("request", (r) => void (r.url().includes("/api/scoreboard/events") && streams++));
    try {
      await page.goto(`${second.url}/api/scoreboard/live.html?userId=${streamer.id}`);
      await expect(page.locator("#home-team")).toHaveText("Lakers");
      await expect(page.locator("#away-score")).toHaveText("95");
      await expect(page.locator("#period-label")).toHaveText("Q4 2:31");
      const look = await page.evaluate(() => ({ background: getComputedStyle(document.body).backgroundColor, margin: getComputedStyle(document.body).margin }));
      expect(look).toEqual({ background: "rgba(0, 0, 0, 0)", margin: "0px" });
      await expect(page.locator("body")).toHaveAttribute("data-connection", "open");
      expect(streams).toBe(1);

      await postReading(request, streamer, { homeTeam: "Lakers", homeScore: 101, awayTeam: "Celtics", awayScore: 95, period: "4", timeRemaining: "1:58" });
      await expect(page.locator("#home-score")).toHaveText("101");
      await expect(page.locator("#period-label")).toHaveText("Q4 1:58");
      // Pushed over the open stream, not picked up by connecting again.
      expect(streams).toBe(1);

      // Drop the connection: the second server goes away and comes back on the same address.
      await second.stop();
      await expect(page.locator("body")).toHaveAttribute("data-connection", "reconnecting");
      await postReading(request, streamer, { homeTeam: "Lakers", homeScore: 103, awayTeam: "Celtics", awayScore: 97, period: null, timeRemaining: null });
      second = await startApp(env);
      await expect(page.locator("#home-score")).toHaveText("103");
      await expect(page.locator("#away-score")).toHaveText("97");
      await expect(page.locator("#period-label")).toHaveText("LIVE");
      await expect(page.locator("body")).toHaveAttribute("data-connection", "open");
      const reconnected = streams;

      await postReading(request, streamer, { homeTeam: "Lakers", homeScore: 105, awayTeam: "Celtics", awayScore: 97, period: "OT", timeRemaining: "4:40" });
      await expect(page.locator("#home-score")).toHaveText("105");
      // Again over the stream that reconnected, not a further connection.
      expect(streams).toBe(reconnected);
    } finally {
      await second.stop();
    }
  });
});

test("team names from the model are shown as text, never run as markup", async ({ page, request }) => {
  const streamer = await signUpStreamer(request);
  await postReading(request, streamer, { homeTeam: "Home", homeScore: 0, awayTeam: "Away", awayScore: 0 }, "soccer");
  await page.goto(`/api/scoreboard/live.html?userId=${streamer.id}`);
  await expect(page.locator("body")).toHaveAttribute("data-connection", "open");
  const evil = `<img src=x onerror="document.title='pwned'">`;
  await postReading(request, streamer, { homeTeam: evil, homeScore: 1, awayTeam: "</script><b>bold</b>", awayScore: 0, period: "2" }, "soccer");
  await expect(page.locator("#home-team")).toHaveText(evil);
  await expect(page.locator("#away-team")).toHaveText("</script><b>bold</b>");
  await expect(page.locator("#period-label")).toHaveText("2nd Half");
  await page.reload();
  await expect(page.locator("#home-team")).toHaveText(evil);
  expect(await page.locator("#scoreboard img, #scoreboard b").count()).toBe(0);
  expect(await page.title()).toBe("Live scoreboard");
});
