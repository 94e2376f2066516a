// Captions over HTTP against the fake Moondream scripted with what models really answer: JSON, fenced JSON,
// markdown, nothing, a refusal. The API gives plain prose or "" (nothing new), and a story records only
// real captions: the studio posts the non-empty ones, and the story refuses an empty one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CAPTION_MAX_LENGTH } from "#app/schemas/vision";
import { signUpUser, type TestUser } from "../support/client";
import { openEvents } from "../support/sse";
import { markerFrame, startVisionStack, type VisionStack } from "../support/vision";

let stack: VisionStack;
let frame: string;

beforeAll(async () => {
  stack = await startVisionStack();
  frame = await markerFrame();
});
afterAll(() => stack.stop());

/** A user with an own key whose answers the test scripts. */
async function userWithScript(answers: string[]): Promise<TestUser> {
  const user = await signUpUser({ baseUrl: stack.url });
  const key = `captions-${user.id}`;
  expect((await user.client.post("/api/moondream/api-key", { apiKey: key })).status).toBe(200);
  stack.fake.script(key, answers);
  return user;
}

async function captionOf(user: TestUser, storyMode: boolean): Promise<string> {
  const response = await user.client.post("/api/moondream/caption", { imageData: frame, storyMode });
  expect(response.status).toBe(200);
  return ((await response.json()) as { caption: string }).caption;
}

describe("captions as plain prose", () => {
  it('story captions: JSON, markdown and prose become prose; empty and refusals are "" and never reach the story', async () => {
    const long = "The hall fills slowly as the lights warm the long tables and the first guests find their seats. ".repeat(8);
    const answers = [
      '```json\n{\n  "caption": "The stage lights come up slowly.",\n  "mood": "expectant"\n}\n```',
      "",
      "## A Quiet Stage\n\n**A red square** waits in the *middle*, lit from [the left](https://example.com).",
      "I'm sorry, but I can't help with identifying people in images.",
      "   \n  ",
      long,
    ];
    const user = await userWithScript(answers);
    const story = (await (await user.client.post("/api/stories", { title: "Scripted" })).json()) as { id: string };

    const captions: string[] = [];
    for (let i = 0; i < answers.length; i++) {
      const caption = await captionOf(user, true);
      expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/query" });
      captions.push(caption);
      // What the studio does with each answer: record it unless it is empty.
      if (caption) expect((await user.client.post(`/api/stories/${story.id}/captions`, { caption, photoId: null })).status).toBe(201);
    }
    expect(captions.slice(0, 5)).toEqual(["The stage lights come up slowly.", "", "A Quiet Stage. A red square waits in the middle, lit from the left.", "", ""]);
    expect(captions[5]!.length).toBeLessThanOrEqual(CAPTION_MAX_LENGTH);
    expect(captions[5]).toMatch(/^The hall fills slowly .* [a-z]+…$/);

    // An empty caption is refused by the story too, so nothing blank can be recorded.
    for (const caption of ["", "   "]) {
      const refused = await user.client.post(`/api/stories/${story.id}/captions`, { caption, photoId: null });
      expect(refused.status).toBe(400);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    const recorded = (await (await user.client.get(`/api/stories/${story.id}/captions`)).json()) as Array<{ caption: string }>;
    expect(recorded.map((c) => c.caption)).toEqual([captions[0], captions[2], captions[5]]);
  });

  it("plain captions are normalised the same way", async () => {
    const user = await userWithScript(['{"text": "A  cat\\n naps on the sill."}', "- A kettle\n- A cup", "N/A"]);
    expect(await captionOf(user, false)).toBe("A cat naps on the sill.");
    expect(stack.fake.calls.at(-1)).toMatchObject({ path: "/caption" });
    expect(await captionOf(user, false)).toBe("A kettle. A cup.");
    expect(await captionOf(user, false)).toBe("");
  });

  it("a streamed caption sends the raw text as it comes, then the prose to show in its place", async () => {
    const raw = '```json\n{"caption": "Rain streaks the **window**."}\n```';
    const user = await userWithScript([raw]);
    const events = await openEvents(`${stack.url}/api/moondream/caption`, {
      method: "POST",
      headers: { cookie: user.client.cookieHeader, "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({ imageData: frame, storyMode: true }),
    });
    const chunks: string[] = [];
    for (;;) {
      const event = await events.next();
      if (event.event !== "chunk") {
        expect(event.event).toBe("done");
        expect(JSON.parse(event.data)).toEqual({ caption: "Rain streaks the window." });
        break;
      }
      chunks.push((JSON.parse(event.data) as { chunk: string }).chunk);
    }
    expect(chunks.join("").trim()).toBe(raw);
    events.close();
  });
});
