// People-count sessions: snapshots from the counting service, stats that follow corrections.
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "../support/client";
import { dataUrl, jpegBytes, jpegDataUrl } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import type * as CountingService from "#server/counting/service";
import type * as Database from "#db/index";
import type { BlobStore } from "#server/storage/blob-store";
import { openTestBlobStore } from "../support/blob-store";

let addSnapshot: typeof CountingService.addSnapshot;
let LOCAL_SNAPSHOTS_PER_MINUTE: number;
let db: typeof Database.db;
let blobs: BlobStore;

beforeAll(async () => {
  await useSharedDatabase();
  ({ addSnapshot, LOCAL_SNAPSHOTS_PER_MINUTE } = await import("#server/counting/service"));
  ({ db } = await import("#db/index"));
  blobs = await openTestBlobStore();
});

describe("people-count sessions", () => {
  it("keeps average, min, max and count right as snapshots arrive and are corrected", async () => {
    const { client, id: userId } = await signUpUser();
    const created = await client.post("/api/people-count/sessions", { cameraName: "Sanctuary" });
    expect(created.status).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({ cameraName: "Sanctuary", isActive: true, snapshotCount: 0, averageCount: null, minCount: null, maxCount: null });
    expect(session.title).toMatch(/^People Count - /);

    const image = await jpegBytes(320, 240);
    const s1 = await addSnapshot(db(), blobs, userId, session.id, { image, aiCount: 10 });
    await addSnapshot(db(), blobs, userId, session.id, { image, aiCount: 20 });
    const s3 = await addSnapshot(db(), blobs, userId, session.id, { image, aiCount: 10, aiCountMin: 8, aiCountMax: 12 });
    let stats = await (await client.get(`/api/people-count/sessions/${session.id}`)).json();
    expect(stats).toMatchObject({ snapshotCount: 3, averageCount: 13.3, minCount: 8, maxCount: 20, featuredPhotoId: s1.snapshot.id });

    // A person corrects the first to 40 and the range to 2-4 (midpoint 3).
    const corrected = await client.request("PATCH", `/api/people-count/snapshots/${s1.snapshot.id}`, { json: { correctedCount: 40, sessionId: session.id } });
    expect(corrected.status).toBe(200);
    expect(await corrected.json()).toMatchObject({ aiCount: 10, correctedCount: 40, correctedCountMin: null });
    await client.request("PATCH", `/api/people-count/snapshots/${s3.snapshot.id}`, { json: { correctedCount: 3, correctedCountMin: 2, correctedCountMax: 4 } });
    stats = await (await client.get(`/api/people-count/sessions/${session.id}`)).json();
    expect(stats).toMatchObject({ snapshotCount: 3, averageCount: 21, minCount: 2, maxCount: 40 });

    const snapshots = await (await client.get(`/api/people-count/sessions/${session.id}/snapshots`)).json();
    expect(snapshots.map((s: { aiCount: number; correctedCount: number | null }) => [s.aiCount, s.correctedCount])).toEqual([
      [10, 40],
      [20, null],
      [10, 3],
    ]);
    const thumb = await client.get(snapshots[0].thumbnailUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/jpeg");

    const finished = await (await client.post(`/api/people-count/sessions/${session.id}/finish`)).json();
    expect(finished.isActive).toBe(false);
    await expect(addSnapshot(db(), blobs, userId, session.id, { image, aiCount: 1 })).rejects.toThrow(/finished/);
    expect((await (await client.get("/api/people-count/sessions")).json())[0]).toMatchObject({ id: session.id, snapshotCount: 3 });
  });

  it("validates corrections", async () => {
    const { client, id: userId } = await signUpUser();
    const session = await (await client.post("/api/people-count/sessions", {})).json();
    const { snapshot } = await addSnapshot(db(), blobs, userId, session.id, { image: await jpegBytes(), aiCount: 5 });
    for (const [body, field] of [
      [{ correctedCount: -1 }, "correctedCount"],
      [{ correctedCount: 2.5 }, "correctedCount"],
      [{ correctedCount: 5, correctedCountMin: 9, correctedCountMax: 3 }, "correctedCountMin"],
      [{ correctedCount: 5, correctedCountMin: 3 }, "correctedCountMin"],
    ] as const) {
      const response = await client.request("PATCH", `/api/people-count/snapshots/${snapshot.id}`, { json: body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()).errors[field], JSON.stringify(body)).toBeDefined();
    }
    const wrongSession = await client.request("PATCH", `/api/people-count/snapshots/${snapshot.id}`, {
      json: { correctedCount: 1, sessionId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(wrongSession.status).toBe(404);
  });
});

describe("local people-count sessions (counted on the device, no AI call)", () => {
  const snapshotsOf = (id: string) => `/api/people-count/sessions/${id}/snapshots`;

  it("takes the studio's counts as snapshots, with stats and corrections as for Moondream's", async () => {
    const { client } = await signUpUser();
    const moondream = await (await client.post("/api/people-count/sessions", { cameraName: "Hall" })).json();
    expect(moondream.source).toBe("moondream");
    const created = await client.post("/api/people-count/sessions", { cameraName: "Classroom", source: "local" });
    expect(created.status).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({ cameraName: "Classroom", source: "local", isActive: true, snapshotCount: 0 });

    const imageData = await jpegDataUrl(320, 240);
    const first = await client.post(snapshotsOf(session.id), { imageData, count: 3 });
    expect(first.status).toBe(201);
    const added = await first.json();
    expect(added.snapshot).toMatchObject({ sessionId: session.id, aiCount: 3, aiCountMin: null, aiCountMax: null, correctedCount: null });
    expect(added.session).toMatchObject({ id: session.id, source: "local", snapshotCount: 1, averageCount: 3, featuredPhotoId: added.snapshot.id });
    const second = await (await client.post(snapshotsOf(session.id), { imageData, count: 6 })).json();
    expect(second.session).toMatchObject({ snapshotCount: 2, averageCount: 4.5, minCount: 3, maxCount: 6 });

    const corrected = await client.request("PATCH", `/api/people-count/snapshots/${added.snapshot.id}`, { json: { correctedCount: 12, sessionId: session.id } });
    expect(corrected.status).toBe(200);
    expect(await (await client.get(`/api/people-count/sessions/${session.id}`)).json()).toMatchObject({
      snapshotCount: 2,
      averageCount: 9,
      minCount: 6,
      maxCount: 12,
      source: "local",
    });
    const snapshots = await (await client.get(snapshotsOf(session.id))).json();
    expect(snapshots.map((s: { aiCount: number; correctedCount: number | null }) => [s.aiCount, s.correctedCount])).toEqual([
      [3, 12],
      [6, null],
    ]);
    const image = await client.get(snapshots[1].imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
    const list = await (await client.get("/api/people-count/sessions")).json();
    expect(list.map((s: { id: string; source: string }) => [s.id, s.source])).toEqual([
      [session.id, "local"],
      [moondream.id, "moondream"],
    ]);
  });

  it("is the owner's only, one source per session, and refuses a finished session", async () => {
    const { client } = await signUpUser();
    const stranger = await signUpUser();
    const imageData = await jpegDataUrl();
    const local = await (await client.post("/api/people-count/sessions", { source: "local" })).json();
    const other = await stranger.client.post(snapshotsOf(local.id), { imageData, count: 1 });
    expect(other.status).toBe(404);
    expect(other.headers.get("content-type")).toContain("application/problem+json");
    expect((await client.post(snapshotsOf("00000000-0000-4000-8000-000000000000"), { imageData, count: 1 })).status).toBe(404);

    const moondream = await (await client.post("/api/people-count/sessions", {})).json();
    const wrongSource = await client.post(snapshotsOf(moondream.id), { imageData, count: 1 });
    expect(wrongSource.status).toBe(409);
    expect((await wrongSource.json()).detail).toMatch(/counts with Moondream/);

    await client.post(`/api/people-count/sessions/${local.id}/finish`);
    const finished = await client.post(snapshotsOf(local.id), { imageData, count: 1 });
    expect(finished.status).toBe(409);
    expect((await finished.json()).detail).toMatch(/finished/);
    for (const id of [local.id, moondream.id]) expect((await (await client.get(`/api/people-count/sessions/${id}`)).json()).snapshotCount).toBe(0);
    // The service itself keeps one source per session: a Moondream count cannot land in a local session.
    const active = await (await client.post("/api/people-count/sessions", { source: "local" })).json();
    const { id: userId } = await (await client.get("/api/auth/me")).json();
    await expect(addSnapshot(db(), blobs, userId, active.id, { image: await jpegBytes(), aiCount: 2 })).rejects.toThrow(/on the device/);
  });

  it("answers bad input with problem JSON naming the field, and stores nothing", async () => {
    const { client } = await signUpUser();
    const session = await (await client.post("/api/people-count/sessions", { source: "local" })).json();
    const imageData = await jpegDataUrl();
    for (const [body, field, status] of [
      [{ imageData, count: -1 }, "count", 400],
      [{ imageData, count: 2.5 }, "count", 400],
      [{ imageData, count: "3" }, "count", 400],
      [{ imageData }, "count", 400],
      [{ count: 1 }, "imageData", 400],
      [{ imageData: "not an image", count: 1 }, "imageData", 400],
      [{ imageData: dataUrl(Buffer.from("hello, not a picture")), count: 1 }, "imageData", 422],
      [{ imageData: dataUrl(Buffer.from("<svg/>"), "image/svg+xml"), count: 1 }, "imageData", 422],
    ] as const) {
      const response = await client.post(snapshotsOf(session.id), body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect((await response.json()).errors[field], JSON.stringify(body).slice(0, 80)).toBeDefined();
    }
    const badSource = await client.post("/api/people-count/sessions", { source: "cloud" });
    expect(badSource.status).toBe(400);
    expect((await badSource.json()).errors.source).toBeDefined();
    expect((await (await client.get(`/api/people-count/sessions/${session.id}`)).json()).snapshotCount).toBe(0);
  });

  it("limits the snapshots a user adds a minute", async () => {
    const { client } = await signUpUser();
    const session = await (await client.post("/api/people-count/sessions", { source: "local" })).json();
    const imageData = dataUrl(await jpegBytes(16, 16));
    for (let i = 0; i < LOCAL_SNAPSHOTS_PER_MINUTE; i++) expect((await client.post(snapshotsOf(session.id), { imageData, count: i % 4 })).status).toBe(201);
    const refused = await client.post(snapshotsOf(session.id), { imageData, count: 1 });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await (await client.get(`/api/people-count/sessions/${session.id}`)).json()).snapshotCount).toBe(LOCAL_SNAPSHOTS_PER_MINUTE);
  });
});
