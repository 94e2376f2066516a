// Cloud calls for the scripted 10-minute scene (bench/local-vision-script.ts): a Moondream-every-second detection
// loop against local detection that asks Moondream once per line event ("describe with Moondream"). The events come
// from the real scene (tracker + line counter) fed the scripted detections; the calls are real HTTP through the
// server's own provider client to the fake Moondream on loopback, and are counted by what the fake received.
// Targets (issue 19): ≤ 1/20 of the loop's calls, with ≥ 95 % of the script's crossings caught.
import type { LineCrossedEvent } from "#app/studio/local-vision/events";
import { createScene } from "#app/studio/local-vision/scene";
import { DEFAULT_DESCRIBE_PROMPT } from "#app/schemas/local-vision";
import { MoondreamProvider } from "#server/vision/providers/moondream";
import { markerImage, toDataUrl } from "../tests/fakes/moondream/images";
import { startFakeMoondream } from "../tests/fakes/moondream/server";
import { DOOR, LAG_SECONDS, SCENE_FRAME_MS, SCENE_SECONDS, sceneFrames, sceneSummary, scriptedCrossings, type ScriptedCrossing } from "./local-vision-script";
import { ms, table, verdict } from "./lib";

/** The loop detects once a second: the studio's Moondream detection at its usual interval. */
const LOOP_INTERVAL_SECONDS = 1;
const LOOP_KEY = "bench-lv-loop";
const LOCAL_KEY = "bench-lv-local";

interface Judged {
  events: LineCrossedEvent[];
  /** Each scripted crossing with the event that caught it, if one did. */
  matches: Array<{ crossing: ScriptedCrossing; event?: LineCrossedEvent }>;
  falseEvents: LineCrossedEvent[];
}

/**
 * The scene through `createScene`, and its events matched to the script: an event catches a crossing of the same
 * class and direction when it falls in the crossing's window; each event and each crossing is used at most once,
 * nearest in time first. Events left over are false events.
 */
function judgeScene(): Judged {
  const frames = sceneFrames();
  const scene = createScene({ lines: [DOOR] });
  const events: LineCrossedEvent[] = [];
  frames.forEach((detections, i) => {
    const { events: frameEvents } = scene.step(detections, i * SCENE_FRAME_MS);
    for (const event of frameEvents) if (event.type === "line.crossed") events.push(event);
  });
  const crossings = scriptedCrossings();
  const pairs: Array<{ c: number; e: number; gap: number }> = [];
  crossings.forEach((crossing, c) =>
    events.forEach((event, e) => {
      const seconds = event.at / 1000;
      if (event.label === crossing.label && event.direction === crossing.direction && seconds >= crossing.from && seconds <= crossing.to) {
        pairs.push({ c, e, gap: Math.abs(seconds - crossing.at) });
      }
    }),
  );
  pairs.sort((x, y) => x.gap - y.gap || x.c - y.c || x.e - y.e);
  const eventOf = new Map<number, number>();
  const usedEvents = new Set<number>();
  for (const { c, e } of pairs) {
    if (eventOf.has(c) || usedEvents.has(e)) continue;
    eventOf.set(c, e);
    usedEvents.add(e);
  }
  return {
    events,
    matches: crossings.map((crossing, c) => ({ crossing, event: eventOf.has(c) ? events[eventOf.get(c)!] : undefined })),
    falseEvents: events.filter((_, e) => !usedEvents.has(e)),
  };
}

const describeEvent = (event: LineCrossedEvent) => `${event.label} ${event.direction} at ${(event.at / 1000).toFixed(1)} s (track #${event.trackId})`;

export async function runLocalVisionCallsBenchmarks(): Promise<string> {
  const judged = judgeScene();
  const fake = await startFakeMoondream({ analyseImages: false }); // fixed answers: the count is what matters here
  try {
    // Both approaches send the same kind of frame: one 640×360 JPEG of the scene, as the studio grabs it.
    const frame = toDataUrl(await markerImage({ width: 640, height: 360, markers: [{ color: "red", x: 0.4, y: 0.3, w: 0.06, h: 0.3 }] }));
    // The server's own provider client (as /api/moondream/detect and /query use it), no retries: each call is one request.
    const client = new MoondreamProvider({ endpoint: fake.url, timeoutMs: 10_000, maxRetries: 0 });
    const started = performance.now();
    // (a) The loop: one detection a second for the whole scene, whatever happens in it.
    for (let second = 0; second < SCENE_SECONDS; second += LOOP_INTERVAL_SECONDS) {
      await client.detect({ imageUrl: frame, object: "person", maxObjects: 50 }, { apiKey: LOOP_KEY });
    }
    // (b) Local detection: one question per line event the scene reported — caught and false alike, as the studio
    // cannot tell them apart.
    for (const _event of judged.events) await client.query({ imageUrl: frame, question: DEFAULT_DESCRIBE_PROMPT }, { apiKey: LOCAL_KEY });
    const sendingMs = performance.now() - started;

    const received = async (key: string) => ((await (await fetch(new URL(`/__fake/stats?key=${key}`, fake.url))).json()) as { calls: number }).calls;
    const loopCalls = await received(LOOP_KEY);
    const localCalls = await received(LOCAL_KEY);
    const paths = (key: string) => {
      const byPath = new Map<string, number>();
      for (const call of fake.calls) if (call.key === key) byPath.set(call.path, (byPath.get(call.path) ?? 0) + 1);
      return [...byPath].map(([path, n]) => `${n} × ${path}`).join(", ") || "none";
    };

    const caught = judged.matches.filter((match) => match.event).length;
    const total = judged.matches.length;
    const caughtShare = total ? caught / total : 0;
    const ratio = loopCalls ? localCalls / loopCalls : Infinity;
    const perHour = (calls: number) => Math.round((calls * 3600) / SCENE_SECONDS).toLocaleString("en");
    const lags = judged.matches.flatMap((match) => (match.event ? [match.event.at / 1000 - match.crossing.at] : [])).sort((a, b) => a - b);
    const missed = judged.matches.filter((match) => !match.event).map((match) => `${match.crossing.actor} (${match.crossing.direction} at ${match.crossing.at.toFixed(1)} s)`);

    return [
      "### Cloud calls: Moondream every second against local detection with one Moondream call per event",
      "",
      `Scene: ${sceneSummary()}`,
      "",
      table(
        ["approach", "calls the provider received", "per hour", "crossings caught", "false events"],
        [
          [`Moondream detection every ${LOOP_INTERVAL_SECONDS} s`, `**${loopCalls}** (${paths(LOOP_KEY)})`, perHour(loopCalls), "—", "—"],
          [
            'local detection + "describe with Moondream" per event',
            `**${localCalls}** (${paths(LOCAL_KEY)})`,
            perHour(localCalls),
            `**${caught} / ${total}** (${(caughtShare * 100).toFixed(0)} %)`,
            `**${judged.falseEvents.length}**`,
          ],
        ],
      ),
      "",
      table(
        ["target", "measured", "verdict"],
        [
          ["calls ≤ 1/20 of the loop's", `${localCalls} / ${loopCalls} = 1/${ratio > 0 ? (1 / ratio).toFixed(0) : "∞"} (${(ratio * 100).toFixed(1)} %)`, verdict(ratio <= 1 / 20)],
          ["≥ 95 % of the script's crossings caught", `${(caughtShare * 100).toFixed(0)} % (${caught} of ${total})`, verdict(caughtShare >= 0.95)],
        ],
      ),
      "",
      `Events come from the real \`createScene\` (tracker + line counter, default settings) fed the scripted detections; ` +
        `an event catches a crossing of the same class and direction from 1 s before the feet leave their side to ${LAG_SECONDS} s after they cross (or reappear). ` +
        `Event delay after the true crossing: median ${lags.length ? lags[Math.floor(lags.length / 2)]!.toFixed(1) : "—"} s, at most ${lags.length ? lags.at(-1)!.toFixed(1) : "—"} s. ` +
        `Missed: ${missed.length ? missed.join("; ") : "none"}. False events: ${judged.falseEvents.length ? judged.falseEvents.map(describeEvent).join("; ") : "none"}.`,
      "",
      `Calls are real HTTP on loopback (the server's MoondreamProvider → the fake Moondream, counted by its \`/__fake/stats\`), sent back to back: ` +
        `the 2 requests/s per-key pacing and the provider's latency are not simulated (the loop's 1 call/s is within that pace), so ${SCENE_SECONDS / 60} minutes of calls took ${ms(sendingMs)}. ` +
        `At 100 free calls, the loop spends a new user's allowance in ${Math.round(100 * LOOP_INTERVAL_SECONDS)} s; the local scene's ${localCalls} calls last ${localCalls ? Math.floor(100 / localCalls) : "∞"} such scenes.`,
    ].join("\n");
  } finally {
    await fake.close();
  }
}
