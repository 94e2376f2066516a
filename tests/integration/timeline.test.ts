// The events timeline on the shared app: local-vision events and auto-captures recorded as they land (through the
// API), read back newest first with filters, full-text search (phrases, exclusions, typos), a cursor that holds while
// rows arrive, the day strip's marks, the retention setting, and only ever the caller's own events. (Monitor errors:
// monitors-run.test.ts; alerts: alerts.test.ts; webhooks given up on: webhook-delivery.test.ts.)
import { afterAll, describe, expect, inject, it } from "vitest";
import { createDb } from "#db/index";
import { deleteOldEvents, insertEvents, type NewTimelineEvent } from "#server/timeline/queries";
import type { TimelineEvent, TimelinePage } from "#app/schemas/timeline";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { send, userWithPlace, type Place } from "../support/places";

const db = createDb(inject("databaseUrl"), 2);
afterAll(() => db.destroy());

const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };

async function userWithCamera(cameraName = "Back door"): Promise<Place> {
  return userWithPlace({ camera: cameraName, line: "Front gate", zone: "Loading bay" });
}

async function page(user: TestUser, query = ""): Promise<TimelinePage> {
  const response = await user.client.get(`/api/timeline${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as TimelinePage;
}

const types = (events: readonly TimelineEvent[]) => events.map((event) => event.type);

/** A studio's batch: a line crossing with its photo and description, a car entering, a person loitering with a dog. */
async function postBatch(place: Place): Promise<{ photoId: string; at: number }> {
  const photo = await send(place, "POST", "/api/photos", { imageData: await jpegDataUrl(), cameraId: place.cameraId, visionEvent: true });
  expect(photo.status).toBe(201);
  const photoId = ((await photo.json()) as { id: string }).id;
  const at = Date.now() - 60_000;
  const posted = await send(place, "POST", `/api/cameras/${place.cameraId}/vision-events`, {
    events: [
      { type: "line.crossed", lineId: place.lineId, direction: "in", trackId: 1, label: "person", at, box, photoId, description: "A man in a red jacket carrying a bicycle" },
      { type: "zone.entered", zoneId: place.zoneId, trackId: 2, label: "car", at: at + 1000, box },
      { type: "zone.loitering", zoneId: place.zoneId, trackId: 3, label: "person", at: at + 2000, box, dwellSeconds: 40, description: "A woman waiting with a dog" },
    ],
  });
  expect(posted.status).toBe(200);
  expect(await posted.json()).toMatchObject({ accepted: 3 });
  return { photoId, at };
}

describe("the events timeline", () => {
  it("records a local-vision batch and an auto-capture as they land, newest first, with photo, class, names and description", async () => {
    const place = await userWithCamera();
    const { photoId, at } = await postBatch(place);
    const capture = await send(place, "POST", "/api/photos", {
      imageData: await jpegDataUrl(),
      cameraId: place.cameraId,
      autoCapture: true,
      detectionQuery: "forklift",
      detectionBoxes: [{ x_min: 0.1, y_min: 0.1, x_max: 0.5, y_max: 0.5 }],
    });
    expect(capture.status).toBe(201);
    const captured = (await capture.json()) as { id: string };

    const { events, nextCursor } = await page(place);
    // The event's photo is told by its event, not as an auto-capture of its own.
    expect(types(events)).toEqual(["photo.auto_captured", "zone.loitering", "zone.entered", "line.crossed"]);
    expect(nextCursor).toBeNull();
    expect(events[0]).toMatchObject({ label: "forklift", photoId: captured.id, thumbnailUrl: `/api/photos/${captured.id}/thumbnail`, cameraName: "Back door" });
    expect(events[3]).toEqual({
      id: expect.any(String),
      type: "line.crossed",
      cameraId: place.cameraId,
      cameraName: "Back door",
      label: "person",
      targetName: "Front gate",
      photoId,
      thumbnailUrl: `/api/photos/${photoId}/thumbnail`,
      imageUrl: `/api/photos/${photoId}/image`,
      description: "A man in a red jacket carrying a bicycle",
      detail: { trackId: 1, direction: "in", box },
      occurredAt: new Date(at).toISOString(),
      highlight: null,
    });
    expect(events[1]).toMatchObject({ targetName: "Loading bay", detail: { dwellSeconds: 40 }, photoId: null, thumbnailUrl: null });
    // The thumbnail the event links to is the owner's photo.
    expect((await place.client.get(events[3]!.thumbnailUrl!)).status).toBe(200);

    // The camera goes; its events stay, with its name.
    expect((await send(place, "DELETE", `/api/cameras/${place.cameraId}`)).status).toBe(204);
    const after = await page(place);
    expect(after.events).toHaveLength(4);
    expect(after.events[3]).toMatchObject({ cameraId: null, cameraName: "Back door", targetName: "Front gate" });
  });

  it("filters by camera, type, class and time, and searches with phrases, exclusions and typos, highlighting the words", async () => {
    const place = await userWithCamera();
    const { at } = await postBatch(place);
    const other = await (await send(place, "POST", "/api/cameras", { name: "Garden", thumbnail: await jpegDataUrl(64, 48) })).json();
    const garden = await (await send(place, "POST", `/api/cameras/${other.id}/lines`, { name: "Fence", a: { x: 0, y: 0.5 }, b: { x: 1, y: 0.5 } })).json();
    await send(place, "POST", `/api/cameras/${other.id}/vision-events`, {
      events: [{ type: "line.crossed", lineId: garden.id, direction: "out", trackId: 9, label: "dog", at: at + 3000, box, description: "A brown dog jumping" }],
    });

    expect(types((await page(place, `?cameraId=${other.id}`)).events)).toEqual(["line.crossed"]);
    expect((await page(place, `?cameraId=${other.id}&cameraId=${place.cameraId}`)).events).toHaveLength(4);
    expect((await page(place, `?cameraId=${other.id},${place.cameraId}`)).events).toHaveLength(4);
    expect(types((await page(place, "?type=zone.entered,zone.loitering")).events)).toEqual(["zone.loitering", "zone.entered"]);
    expect(types((await page(place, "?type=zone.entered&type=line.crossed")).events)).toEqual(["line.crossed", "zone.entered", "line.crossed"]);
    expect((await page(place, "?label=Car")).events.map((event) => event.label)).toEqual(["car"]);
    const from = encodeURIComponent(new Date(at + 500).toISOString());
    const to = encodeURIComponent(new Date(at + 2500).toISOString());
    expect(types((await page(place, `?from=${from}&to=${to}`)).events)).toEqual(["zone.loitering", "zone.entered"]);

    const bicycle = await page(place, "?q=bicycle");
    expect(types(bicycle.events)).toEqual(["line.crossed"]);
    expect(bicycle.events[0]!.highlight).toContainEqual({ text: "bicycle", match: true });
    expect(bicycle.events[0]!.highlight!.map((part) => part.text).join("")).toBe("A man in a red jacket carrying a bicycle");
    // A phrase must appear as written; an exclusion takes out what has the word.
    expect(types((await page(place, `?q=${encodeURIComponent('"red jacket"')}`)).events)).toEqual(["line.crossed"]);
    expect((await page(place, `?q=${encodeURIComponent('"jacket red"')}`)).events).toEqual([]);
    expect((await page(place, `?q=${encodeURIComponent("person -bicycle")}`)).events.map((event) => event.description)).toEqual(["A woman waiting with a dog"]);
    // Typos: the nearest word the user's events have.
    const typo = await page(place, "?q=bicyle");
    expect(types(typo.events)).toEqual(["line.crossed"]);
    expect(typo.searchedFor).toBe("bicycle");
    expect((await page(place, `?q=${encodeURIComponent("persn -bicycle")}`)).events.map((event) => event.description)).toEqual(["A woman waiting with a dog"]);
    // Names and the type's words: the camera, the line, "line crossed", the class ranks with its own word.
    expect((await page(place, "?q=fence")).events.map((event) => event.label)).toEqual(["dog"]);
    expect((await page(place, `?q=${encodeURIComponent("line crossed garden")}`)).events.map((event) => event.label)).toEqual(["dog"]);
    expect(types((await page(place, "?q=loitering")).events)).toEqual(["zone.loitering"]);
    // Filters and search together.
    expect((await page(place, `?q=dog&type=zone.loitering&cameraId=${place.cameraId}`)).events.map((event) => event.label)).toEqual(["person"]);
  });

  it("pages by cursor without losing or repeating a row while new events arrive between pages", async () => {
    const user = await signUpUser();
    const userId = user.id;
    const base = Date.now() - 3600_000;
    // 25 events, five of them at the same millisecond: the id breaks the tie.
    const rows = Array.from({ length: 25 }, (_, index) =>
      event(userId, { occurred_at: new Date(base + Math.min(index, 20) * 1000), label: `thing${index}`, description: index % 3 === 0 ? "A red van parks" : null }),
    );
    await insertEvents(db, rows);
    const all = (await page(user, "?limit=100")).events.map((row) => row.id);
    expect(all).toHaveLength(25);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const result: TimelinePage = await page(user, `?limit=7${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...result.events.map((row) => row.id));
      cursor = result.nextCursor;
      // Newer events land between pages (a studio posting): they are for the next first page, not this walk.
      await insertEvents(db, [event(userId, { occurred_at: new Date(), label: `new${pages}` })]);
      pages++;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(4);

    // Searched pages: a full page comes from the newest rows, a short one from the index; both agree with one long page.
    const vans = (await page(user, "?q=van&limit=100")).events.map((row) => row.id);
    expect(vans).toHaveLength(9);
    const walked: string[] = [];
    cursor = null;
    do {
      const result: TimelinePage = await page(user, `?q=van&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      walked.push(...result.events.map((row) => row.id));
      cursor = result.nextCursor;
    } while (cursor);
    expect(walked).toEqual(vans);
    expect((await page(user, "?limit=100")).events).toHaveLength(29);
  });

  it("never shows another user's events, whatever the filter or search", async () => {
    const owner = await userWithCamera("Warehouse");
    await postBatch(owner);
    const other = await userWithCamera("Warehouse");
    expect((await page(other)).events).toEqual([]);
    expect((await page(other, "?q=bicycle")).events).toEqual([]);
    expect((await page(other, `?cameraId=${owner.cameraId}`)).events).toEqual([]);
    expect((await page(other, "?q=bicyle")).searchedFor).toBe("bicyle"); // the owner's words are not the other's vocabulary
    const today = new Date().toISOString().slice(0, 10);
    expect((await (await other.client.get(`/api/timeline/day?date=${today}`)).json()).cameras).toEqual([]);
    expect((await page(owner)).events).toHaveLength(3);
  });

  it("answers bad filters with problem JSON naming the field", async () => {
    const user = await signUpUser();
    for (const [query, field] of [
      ["?type=nope", "type"],
      ["?cameraId=not-a-uuid", "cameraId"],
      ["?limit=0", "limit"],
      ["?from=yesterday", "from"],
      ["?cursor=bm9wZQ", "cursor"],
      [`?from=${encodeURIComponent("2026-01-02T00:00:00Z")}&to=${encodeURIComponent("2026-01-01T00:00:00Z")}`, "from"],
    ] as const) {
      const response = await user.client.get(`/api/timeline${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      const fields = Object.keys((await response.json()).errors as Record<string, string[]>);
      expect(
        fields.some((name) => name === field || name.startsWith(`${field}.`)),
        `${query}: ${fields.join(", ")}`,
      ).toBe(true);
    }
    const day = await user.client.get("/api/timeline/day?date=2026-02-30");
    expect(day.status).toBe(400);
    expect((await day.json()).errors).toHaveProperty("date");
    const zone = await user.client.get("/api/timeline/day?date=2026-02-03&tz=Mars/Olympus");
    expect(zone.status).toBe(400);
    expect((await zone.json()).errors).toHaveProperty("tz");
  });

  it("marks a day per camera, one mark per type and 5 minutes with its count and latest event, in the asked time zone", async () => {
    const user = await signUpUser();
    const userId = user.id;
    // 23:58–00:07 UTC on 2026-03-01 is the evening of 2026-03-01 in New York (UTC−5).
    const at = (time: string) => new Date(`2026-03-02T${time}Z`);
    await insertEvents(db, [
      event(userId, { occurred_at: at("00:01:00"), camera_name: "Yard" }),
      event(userId, { occurred_at: at("00:02:00"), camera_name: "Yard" }),
      event(userId, { occurred_at: at("00:03:00"), camera_name: "Yard", label: "latest" }),
      event(userId, { occurred_at: at("00:03:30"), camera_name: "Yard", type: "zone.entered" }),
      event(userId, { occurred_at: at("00:07:00"), camera_name: "Yard" }),
      event(userId, { occurred_at: at("00:01:00"), camera_name: "Gate" }),
      event(userId, { occurred_at: at("06:00:00"), camera_name: "Yard" }), // 01:00 on 2 March in New York
    ]);
    const response = await user.client.get("/api/timeline/day?date=2026-03-01&tz=America/New_York");
    expect(response.status).toBe(200);
    const day = await response.json();
    expect(day).toMatchObject({ from: "2026-03-01T05:00:00.000Z", to: "2026-03-02T05:00:00.000Z", bucketMinutes: 5 });
    const latest = (await page(user, "?label=latest")).events[0]!;
    expect(day.cameras).toEqual([
      {
        cameraId: null,
        cameraName: "Gate",
        marks: [{ at: "2026-03-02T00:00:00.000Z", type: "line.crossed", count: 1, eventId: expect.any(String), eventAt: "2026-03-02T00:01:00.000Z" }],
      },
      {
        cameraId: null,
        cameraName: "Yard",
        marks: [
          { at: "2026-03-02T00:00:00.000Z", type: "line.crossed", count: 3, eventId: latest.id, eventAt: "2026-03-02T00:03:00.000Z" },
          { at: "2026-03-02T00:00:00.000Z", type: "zone.entered", count: 1, eventId: expect.any(String), eventAt: "2026-03-02T00:03:30.000Z" },
          { at: "2026-03-02T00:05:00.000Z", type: "line.crossed", count: 1, eventId: expect.any(String), eventAt: "2026-03-02T00:07:00.000Z" },
        ],
      },
    ]);
  });

  it("keeps events for the user's retention setting: the chore deletes only that user's older rows", async () => {
    const short = await signUpUser();
    const other = await signUpUser();
    expect(await (await short.client.get("/api/timeline/settings")).json()).toEqual({ retentionDays: 90 });
    const bad = await send(short, "PUT", "/api/timeline/settings", { retentionDays: 0 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors).toHaveProperty("retentionDays");
    const saved = await send(short, "PUT", "/api/timeline/settings", { retentionDays: 7 });
    expect(saved.status).toBe(200);
    expect(await (await short.client.get("/api/timeline/settings")).json()).toEqual({ retentionDays: 7 });

    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const [shortId, otherId] = [short.id, other.id];
    await insertEvents(db, [
      event(shortId, { occurred_at: daysAgo(10), label: "old" }),
      event(shortId, { occurred_at: daysAgo(3), label: "recent" }),
      event(otherId, { occurred_at: daysAgo(10), label: "kept" }),
      event(otherId, { occurred_at: daysAgo(100), label: "past90" }),
    ]);
    await deleteOldEvents(db, 90, 1); // one row a statement: the loop goes on until nothing is left
    expect((await page(short)).events.map((row) => row.label)).toEqual(["recent"]);
    expect((await page(other)).events.map((row) => row.label)).toEqual(["kept"]);
  });
});

function event(userId: string, values: Partial<NewTimelineEvent>): NewTimelineEvent {
  return {
    user_id: userId,
    camera_id: null,
    camera_name: "Yard",
    type: "line.crossed",
    label: "person",
    target_name: "Gate",
    photo_id: null,
    description: null,
    detail: {},
    occurred_at: new Date(),
    ...values,
  };
}
