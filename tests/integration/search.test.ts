// Library search on real PostgreSQL through the real API: ranking by weight (labels over captions over names), typos
// read as the nearest indexed word, phrases and exclusions, facets whose counts ignore their own filter, pages that
// stay stable while photos are saved between them, owner isolation, the search vector kept right when a story
// caption is added or a story renamed, and saved searches that fire their webhook exactly once per photo.
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, startReceiver, type Receiver } from "../support/webhook-receiver";

interface Hit {
  photo: { id: string; description: string | null };
  rank: number;
  highlight: { text: string; match: boolean }[];
}
interface Result {
  items: Hit[];
  total: number;
  nextCursor: string | null;
  facets: Record<string, { value?: string | boolean; id?: string; min?: number; count: number }[]> | null;
  corrections: { from: string; to: string }[];
}

let image: string;
beforeAll(async () => {
  image = await jpegDataUrl();
});

type PhotoFields = {
  description?: string;
  detectionQuery?: string;
  detectionBoxes?: { x_min: number; y_min: number; x_max: number; y_max: number; label?: string }[];
  cameraId?: string;
  storyId?: string;
  autoCapture?: boolean;
  captureMode?: "single" | "burst" | "timelapse";
};

async function photo(user: TestUser, fields: PhotoFields = {}): Promise<string> {
  const response = await user.client.post("/api/photos", { imageData: image, ...fields });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function search(user: TestUser, params: Record<string, string | number | boolean>): Promise<Result> {
  const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  const response = await user.client.get(`/api/photos/search?${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as Result;
}

const ids = (result: Result) => result.items.map((hit) => hit.photo.id);
const box = (label?: string) => ({ x_min: 0.1, y_min: 0.1, x_max: 0.4, y_max: 0.6, ...(label ? { label } : {}) });

describe("library search", () => {
  it("ranks label matches over captions over names, and highlights the caption's words as plain segments", async () => {
    const user = await signUpUser();
    const camera = await (await user.client.post("/api/cameras", { name: "Otter pond" })).json();
    const byName = await photo(user, { cameraId: camera.id });
    const byCaption = await photo(user, { description: "An otter dives under the <b>lily</b> pads" });
    const byLabel = await photo(user, { detectionQuery: "otter", detectionBoxes: [box("otter")] });
    await photo(user, { description: "A heron waits" });

    const result = await search(user, { q: "otter" });
    expect(ids(result)).toEqual([byLabel, byCaption, byName]);
    expect(result.total).toBe(3);
    expect(result.items[0]!.rank).toBeGreaterThan(result.items[1]!.rank);
    expect(result.items[1]!.rank).toBeGreaterThan(result.items[2]!.rank);
    const highlight = result.items[1]!.highlight;
    expect(highlight.filter((s) => s.match).map((s) => s.text)).toEqual(["otter"]);
    // Plain text segments around the match: no marks, no markup (the caption's own tags are dropped by ts_headline).
    expect(highlight.map((s) => s.text).join("")).toMatch(/otter dives under the\s+lily\s+pads$/);
    expect(highlight.map((s) => s.text).join("")).not.toMatch(/[<>]/);
    expect(highlight.every((s) => !s.text.includes("\u0001") && !s.text.includes("\u0002"))).toBe(true);
  });

  it("reads a misspelt word as its nearest indexed spelling", async () => {
    const user = await signUpUser();
    const wet = await photo(user, { description: "Someone holds an umbrella in the rain" });
    await photo(user, { description: "Sunny afternoon" });
    const result = await search(user, { q: "umbrela" });
    expect(result.corrections).toEqual([{ from: "umbrela", to: "umbrella" }]);
    expect(ids(result)).toEqual([wet]);
    // A word that is indexed is never "corrected".
    expect((await search(user, { q: "rain" })).corrections).toEqual([]);
  });

  it("matches phrases and leaves out -excluded words", async () => {
    const user = await signUpUser();
    const phrase = await photo(user, { description: "A red car parked by the gate" });
    const scattered = await photo(user, { description: "A car with a red door" });
    expect(ids(await search(user, { q: '"red car"' }))).toEqual([phrase]);
    expect(new Set(ids(await search(user, { q: "red car" })))).toEqual(new Set([phrase, scattered]));
    expect(ids(await search(user, { q: "car -door" }))).toEqual([phrase]);
  });

  it("counts facets on the matches, each ignoring its own filter, and filters by them", async () => {
    const user = await signUpUser();
    const yard = await (await user.client.post("/api/cameras", { name: "Yard" })).json();
    const gate = await (await user.client.post("/api/cameras", { name: "Gate" })).json();
    const crowd = await photo(user, { cameraId: gate.id, autoCapture: true, detectionQuery: "person", detectionBoxes: [box(), box(), box()], description: "people at the gate" });
    const pair = await photo(user, {
      cameraId: yard.id,
      detectionQuery: "person",
      detectionBoxes: [box("person"), box("person"), box("dog")],
      description: "two people and a dog",
    });
    const dog = await photo(user, { cameraId: yard.id, captureMode: "burst", detectionQuery: "dog", detectionBoxes: [box("dog")], description: "a dog" });
    await photo(user, { cameraId: yard.id, description: "an empty yard" });

    const all = await search(user, { q: "people OR dog" });
    expect(new Set(ids(all))).toEqual(new Set([crowd, pair, dog]));
    expect(all.facets!.labels).toEqual([
      { value: "dog", count: 2 },
      { value: "person", count: 2 },
    ]);
    expect(all.facets!.cameras).toEqual([
      { id: yard.id, name: "Yard", count: 2 },
      { id: gate.id, name: "Gate", count: 1 },
    ]);
    expect(all.facets!.autoCapture).toEqual([
      { value: true, count: 1 },
      { value: false, count: 2 },
    ]);
    expect(all.facets!.captureModes).toEqual([
      { value: "single", count: 2 },
      { value: "burst", count: 1 },
    ]);
    expect(all.facets!.people!.slice(0, 3)).toEqual([
      { min: 1, count: 2 },
      { min: 2, count: 2 },
      { min: 3, count: 1 },
    ]);

    // Choosing a camera narrows the other facets, but the camera facet still counts every camera.
    const inYard = await search(user, { q: "people OR dog", cameraId: yard.id });
    expect(new Set(ids(inYard))).toEqual(new Set([pair, dog]));
    expect(inYard.total).toBe(2);
    expect(inYard.facets!.cameras!.map((c) => c.count)).toEqual([2, 1]);
    expect(inYard.facets!.labels).toEqual([
      { value: "dog", count: 2 },
      { value: "person", count: 1 },
    ]);

    expect(ids(await search(user, { minPeople: 3 }))).toEqual([crowd]);
    expect(ids(await search(user, { label: "Dog", captureMode: "burst" }))).toEqual([dog]);
    expect(ids(await search(user, { q: "people", autoCapture: true }))).toEqual([crowd]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await search(user, { from: today, to: today })).total).toBe(4);
    expect((await search(user, { to: "2001-01-01" })).total).toBe(0);
  });

  it("keeps its pages stable while photos are saved between them", async () => {
    const user = await signUpUser();
    const saved: string[] = [];
    for (let i = 0; i < 5; i++) saved.push(await photo(user, { description: `kingfisher on a branch, picture ${i}` }));

    const seen: string[] = [];
    let inserted = 0;
    let page = await search(user, { q: "kingfisher", limit: 2 });
    expect(page.total).toBe(5);
    seen.push(...ids(page));
    while (page.nextCursor) {
      // A better match and a plain one saved between pages: neither is mixed into this search's pages.
      await photo(user, { detectionQuery: "kingfisher", detectionBoxes: [box("kingfisher")] });
      await photo(user, { description: "kingfisher again" });
      inserted += 2;
      page = await search(user, { q: "kingfisher", limit: 2, cursor: page.nextCursor });
      expect(page.total).toBe(5);
      // The first page's facets stand for the whole search: later pages do not count them again.
      expect(page.facets).toBeNull();
      seen.push(...ids(page));
    }
    expect(seen).toEqual([...saved].reverse());
    expect(inserted).toBe(4);
    expect((await search(user, { q: "kingfisher" })).total).toBe(5 + inserted);
  });

  it("never matches another user's captions, words or photos", async () => {
    const owner = await signUpUser();
    const other = await signUpUser();
    await photo(owner, { description: "A zebra crossing the savannah" });
    const result = await search(other, { q: "zebra" });
    expect(result.total).toBe(0);
    expect(result.items).toEqual([]);
    // The other user's vocabulary is not the owner's: no "correction" to the owner's words either.
    expect((await search(other, { q: "zebr" })).corrections).toEqual([]);
    expect((await search(other, {})).total).toBe(0);
  });

  it("keeps the search vector right when a story caption is added or the story renamed", async () => {
    const user = await signUpUser();
    const story = await (await user.client.post("/api/stories", { title: "Morning walk" })).json();
    const shot = await photo(user, { storyId: story.id });
    expect(ids(await search(user, { q: "morning" }))).toEqual([shot]);
    expect((await search(user, { q: "heron" })).total).toBe(0);

    await user.client.post(`/api/stories/${story.id}/captions`, { caption: "A heron lands on the marsh", photoId: shot });
    const byCaption = await search(user, { q: "heron" });
    expect(ids(byCaption)).toEqual([shot]);
    expect(byCaption.items[0]!.highlight.some((s) => s.match && s.text === "heron")).toBe(true);

    await user.client.request("PATCH", `/api/stories/${story.id}`, { json: { title: "Estuary at dawn" } });
    expect(ids(await search(user, { q: "estuary" }))).toEqual([shot]);
    expect((await search(user, { q: "morning" })).total).toBe(0);
    expect((await search(user, { storyId: story.id })).facets!.stories).toEqual([{ id: story.id, title: "Estuary at dawn", count: 1 }]);
  });

  it("answers bad input with problem JSON", async () => {
    const user = await signUpUser();
    const low = await user.client.get("/api/photos/search?minPeople=0");
    expect(low.status).toBe(400);
    expect((await low.json()).errors.minPeople).toBeDefined();
    const cursor = await user.client.get("/api/photos/search?q=dog&cursor=bm90LWEtY3Vyc29y");
    expect(cursor.status).toBe(400);
    expect((await cursor.json()).errors.cursor).toEqual(["not a cursor this API returned"]);
    const date = await user.client.get("/api/photos/search?from=yesterday");
    expect(date.status).toBe(400);
    const empty = await user.client.post("/api/saved-searches", { name: "Nothing", query: {} });
    expect(empty.status).toBe(400);
    expect((await empty.json()).errors.query).toEqual(["Search for some words or choose a facet first"]);
  });

  it("backfilled and maintained columns agree with a fresh computation", async () => {
    const user = await signUpUser();
    const id = await photo(user, { detectionQuery: "person", detectionBoxes: [box("Person"), box("person"), box("car")], autoCapture: true, captureMode: "timelapse" });
    const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql`select labels, people_count, search::text as search from photos where id = ${id}`;
      expect(row!.labels).toEqual(["car", "person"]);
      expect(row!.people_count).toBe(2);
      expect(row!.search).toContain("'timelaps':");
      expect(row!.search).toMatch(/'auto-captur':\d+C/);
      expect(row!.search).toMatch(/'person':\d+(,\d+)*A/);
    } finally {
      await sql.end();
    }
  });
});

describe("saved searches", () => {
  let app: TestApp;
  let receiver: Receiver;
  let database: postgres.Sql;

  beforeAll(async () => {
    const url = await createOwnDatabase();
    receiver = await startReceiver();
    app = await startApp({ DATABASE_URL: url, DATABASE_POOL_SIZE: "6", DATA_DIR: tempDir("saved-search"), WEBHOOK_ALLOWED_CIDRS: "127.0.0.0/8" });
    database = postgres(url, { max: 1, onnotice: () => {} });
  }, 90_000);

  afterAll(async () => {
    await app?.stop();
    await receiver?.close();
    await database?.end();
  });

  it("lists, caps and deletes the user's own saved searches", async () => {
    const user = await signUpUser({ baseUrl: app.url });
    const other = await signUpUser({ baseUrl: app.url });
    const created = await user.client.post("/api/saved-searches", { name: "Dogs at the back door", query: { q: "dog", cameraId: undefined, minPeople: 1 }, notifyEmail: true });
    expect(created.status).toBe(201);
    const saved = await created.json();
    expect(saved).toMatchObject({ name: "Dogs at the back door", query: { q: "dog", minPeople: 1 }, notifyWebhook: false, notifyEmail: true, notifySms: false });
    expect(await (await other.client.get("/api/saved-searches")).json()).toEqual([]);
    expect((await other.client.request("DELETE", `/api/saved-searches/${saved.id}`)).status).toBe(404);

    const more = await Promise.all(Array.from({ length: 25 }, (_, i) => user.client.post("/api/saved-searches", { name: `s${i}`, query: { label: "cat" } })));
    expect(more.filter((r) => r.status === 201)).toHaveLength(19);
    expect(more.filter((r) => r.status === 409)).toHaveLength(6);
    expect((await user.client.request("DELETE", `/api/saved-searches/${saved.id}`)).status).toBe(204);
    expect(await (await user.client.get("/api/saved-searches")).json()).toHaveLength(19);
  });

  it("fires the webhook once per matching photo, even for photos saved in parallel", async () => {
    const user = await signUpUser({ baseUrl: app.url });
    expect((await user.client.post("/api/webhooks/settings", { webhookUrl: receiver.url, webhookEnabled: true, webhookEventType: "simple" })).status).toBe(200);
    receiver.secret = ((await (await user.client.get("/api/webhooks/secret")).json()) as { secret: string }).secret;
    const saved = await (await user.client.post("/api/saved-searches", { name: "Dog at the back door", query: { q: "dog -cat", label: "dog" }, notifyWebhook: true })).json();
    // A second search that never notifies: it records no hits and sends nothing.
    await user.client.post("/api/saved-searches", { name: "Quiet", query: { q: "dog" } });

    const shots = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        photo(user, {
          detectionQuery: i % 4 === 3 ? "cat" : "dog",
          detectionBoxes: [box(i % 4 === 3 ? "cat" : "dog")],
          description: i % 4 === 2 ? "a dog chasing a cat" : "at the back door",
        }),
      ),
    );
    const matching = shots.filter((_, i) => i % 4 === 0 || i % 4 === 1);
    const events = () => receiver.accepted().filter((r) => r.payload.type === "search.matched");
    await receiver.waitFor(() => events().length >= matching.length);
    // A marker delivery afterwards proves nothing more was queued behind them.
    await photo(user, { detectionQuery: "dog", detectionBoxes: [box("dog")], description: "marker" });
    await receiver.waitFor(() => events().length >= matching.length + 1);
    const photoIds = events().map((r) => r.payload.data.photoId as string);
    expect(new Set(photoIds).size).toBe(photoIds.length);
    expect(new Set(photoIds.slice(0, matching.length))).toEqual(new Set(matching));
    expect(events()[0]!.payload.data).toMatchObject({ savedSearchId: saved.id, name: "Dog at the back door", detectionQuery: "dog" });
    expect(events()[0]!.verified).toBe(true);

    const hits = await database`select saved_search_id, count(*)::int as n, count(distinct photo_id)::int as photos from saved_search_hits
      where saved_search_id in (select id from saved_searches where user_id = ${user.id}) group by saved_search_id`;
    expect(hits).toEqual([{ saved_search_id: saved.id, n: matching.length + 1, photos: matching.length + 1 }]);
  });
});
