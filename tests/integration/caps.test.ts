// Every per-user and per-camera cap holds under a parallel burst over real HTTP: 30 creates at once give exactly the
// room left as 201 and the rest as 409 problem JSON, and the table then holds exactly the cap. (One by one, each
// cap's 409 is covered next to its feature; this is the race between counting and inserting.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_REGIONS_PER_CAMERA } from "#app/schemas/local-vision";
import { MAX_MONITORS } from "#app/schemas/monitors";
import { MAX_RULES } from "#server/alerts/rules";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import { closedCameraRow, insertIpCamera } from "../support/ip-cameras";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import type * as Database from "#db/index";

let db: typeof Database.db;

beforeAll(async () => {
  await useSharedDatabase();
  ({ db } = await import("#db/index"));
});

const BURST = 30;
const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: { origin: user.client.baseUrl } });

/** Sends `BURST` identical creates at once and checks the answers: `room` × 201, the rest 409 problem JSON saying `refusal`. */
async function burst(user: TestUser, path: string, body: (i: number) => unknown, room: number, refusal: string): Promise<void> {
  const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => send(user, "POST", path, body(i))));
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 201)).toHaveLength(room);
  expect(statuses.filter((s) => s === 409)).toHaveLength(BURST - room);
  for (const refused of answers.filter((a) => a.status === 409)) {
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(await refused.json()).toMatchObject({ status: 409, detail: refusal });
  }
}

async function userWithCamera(): Promise<TestUser & { cameraId: string }> {
  const user = await signUpUser();
  const camera = await send(user, "POST", "/api/cameras", { name: "Till", thumbnail: await jpegDataUrl(64, 48) });
  expect(camera.status).toBe(201);
  return { ...user, cameraId: ((await camera.json()) as { id: string }).id };
}

const countRows = async (table: "monitors" | "alert_rules" | "vision_zones" | "vision_lines", userId: string) =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("caps under a parallel burst", () => {
  describe("sent to two app processes on one database", () => {
    const apps: TestApp[] = [];
    beforeAll(async () => {
      const env = { DATABASE_URL: await createOwnDatabase(), DATABASE_POOL_SIZE: "4", DATA_DIR: tempDir("caps") };
      apps.push(await startApp(env));
      apps.push(await startApp(env));
    }, 90_000);
    afterAll(async () => {
      for (const app of apps) await app.stop();
    });

    it("a camera's zones: the database decides, not either process", async () => {
      const [one, two] = apps as [TestApp, TestApp];
      const user = await signUpUser({ baseUrl: one.url });
      const camera = await send(user, "POST", "/api/cameras", { name: "Till", thumbnail: await jpegDataUrl(64, 48) });
      const { id: cameraId } = (await camera.json()) as { id: string };
      // Every other create goes to the second process, with the same session.
      const create = (i: number) => {
        const app = i % 2 ? two : one;
        return fetch(`${app.url}/api/cameras/${cameraId}/zones`, {
          method: "POST",
          headers: { cookie: user.client.cookieHeader, origin: app.url, "content-type": "application/json" },
          body: JSON.stringify({
            name: `Zone ${i}`,
            polygon: [
              { x: 0.1, y: 0.1 },
              { x: 0.9, y: 0.1 },
              { x: 0.5, y: 0.2 + i / 100 },
            ],
          }),
        });
      };
      const statuses = (await Promise.all(Array.from({ length: BURST }, (_, i) => create(i)))).map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_REGIONS_PER_CAMERA);
      expect(statuses.filter((s) => s === 409)).toHaveLength(BURST - MAX_REGIONS_PER_CAMERA);
      expect(await (await user.client.get(`/api/cameras/${cameraId}/zones`)).json()).toHaveLength(MAX_REGIONS_PER_CAMERA);
    });
  });

  it(`a user's monitors: ${MAX_MONITORS}, with no story or counting session left behind by a refused one`, async () => {
    const user = await signUpUser();
    const cameraId = await insertIpCamera(db(), user.id, closedCameraRow("Gate"));
    await burst(user, "/api/monitors", () => ({ kind: "story", cameraId, settings: { intervalSeconds: 3600 } }), MAX_MONITORS, `You can have at most ${MAX_MONITORS} monitors`);
    expect(await countRows("monitors", user.id)).toBe(MAX_MONITORS);
    const stories = await db().selectFrom("stories").select("id").where("user_id", "=", user.id).execute();
    expect(stories).toHaveLength(MAX_MONITORS);

    // Deleting one makes room for exactly one more.
    const [first] = (await (await user.client.get("/api/monitors")).json()) as { id: string }[];
    expect((await send(user, "DELETE", `/api/monitors/${first!.id}`)).status).toBe(204);
    await burst(user, "/api/monitors", () => ({ kind: "story", cameraId, settings: { intervalSeconds: 3600 } }), 1, `You can have at most ${MAX_MONITORS} monitors`);
    expect(await countRows("monitors", user.id)).toBe(MAX_MONITORS);
  });

  it(`a camera's zones and lines: ${MAX_REGIONS_PER_CAMERA} of each, counted per camera`, async () => {
    const user = await userWithCamera();
    const triangle = (i: number) => [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.1 },
      { x: 0.5, y: 0.2 + i / 100 },
    ];
    // Zones and lines at once: each has its own cap, neither takes the other's room.
    await Promise.all([
      burst(
        user,
        `/api/cameras/${user.cameraId}/zones`,
        (i) => ({ name: `Zone ${i}`, polygon: triangle(i) }),
        MAX_REGIONS_PER_CAMERA,
        `A camera can have at most ${MAX_REGIONS_PER_CAMERA} zones`,
      ),
      burst(
        user,
        `/api/cameras/${user.cameraId}/lines`,
        (i) => ({ name: `Line ${i}`, a: { x: 0.1, y: i / 100 }, b: { x: 0.9, y: i / 100 } }),
        MAX_REGIONS_PER_CAMERA,
        `A camera can have at most ${MAX_REGIONS_PER_CAMERA} lines`,
      ),
    ]);
    expect(await countRows("vision_zones", user.id)).toBe(MAX_REGIONS_PER_CAMERA);
    expect(await countRows("vision_lines", user.id)).toBe(MAX_REGIONS_PER_CAMERA);

    // The cap is per camera: the same user's second camera has its own room.
    const second = await send(user, "POST", "/api/cameras", { name: "Door", thumbnail: await jpegDataUrl(64, 48) });
    const secondId = ((await second.json()) as { id: string }).id;
    expect((await send(user, "POST", `/api/cameras/${secondId}/zones`, { name: "Other", polygon: triangle(0) })).status).toBe(201);
  });

  it(`a user's alert rules: ${MAX_RULES}`, async () => {
    const user = await signUpUser();
    const room = 12;
    for (let i = 0; i < MAX_RULES - room; i++) {
      expect((await user.client.post("/api/alerts/rules", { kind: "detection", object: `thing ${i}`, email: true, sms: false })).status).toBe(201);
    }
    await burst(user, "/api/alerts/rules", (i) => ({ kind: "detection", object: `burst ${i}`, email: true, sms: false }), room, `You can have at most ${MAX_RULES} alert rules`);
    expect(await countRows("alert_rules", user.id)).toBe(MAX_RULES);
  });
});
