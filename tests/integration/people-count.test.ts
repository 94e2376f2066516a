// People-count sessions: snapshots from the counting service, stats that follow corrections.
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "../support/client";
import { jpegBytes } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import type * as CountingService from "#server/counting/service";
import type * as Database from "#db/index";

let addSnapshot: typeof CountingService.addSnapshot;
let db: typeof Database.db;

beforeAll(async () => {
  await useSharedDatabase();
  ({ addSnapshot } = await import("#server/counting/service"));
  ({ db } = await import("#db/index"));
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
    const s1 = await addSnapshot(db(), userId, session.id, { image, aiCount: 10 });
    await addSnapshot(db(), userId, session.id, { image, aiCount: 20 });
    const s3 = await addSnapshot(db(), userId, session.id, { image, aiCount: 10, aiCountMin: 8, aiCountMax: 12 });
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
    await expect(addSnapshot(db(), userId, session.id, { image, aiCount: 1 })).rejects.toThrow(/finished/);
    expect((await (await client.get("/api/people-count/sessions")).json())[0]).toMatchObject({ id: session.id, snapshotCount: 3 });
  });

  it("validates corrections", async () => {
    const { client, id: userId } = await signUpUser();
    const session = await (await client.post("/api/people-count/sessions", {})).json();
    const { snapshot } = await addSnapshot(db(), userId, session.id, { image: await jpegBytes(), aiCount: 5 });
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
