// The monitors API on the shared app: owner scoping, IP cameras only, settings checked per kind, pause and
// resume, and what deleting a monitor or its camera does. (Ticks themselves: monitors-run.test.ts.)
import { beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { useSharedDatabase } from "../support/in-process";
import { closedCameraRow, insertIpCamera } from "../support/ip-cameras";
import type * as Database from "#db/index";

let db: typeof Database.db;

beforeAll(async () => {
  await useSharedDatabase();
  ({ db } = await import("#db/index"));
});

async function userWithIpCamera(): Promise<TestUser & { cameraId: string }> {
  const user = await signUpUser();
  return { ...user, cameraId: await insertIpCamera(db(), user.id, closedCameraRow("Stage left")) };
}

const origin = (user: TestUser) => ({ origin: user.client.baseUrl });
const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: origin(user) });

describe("the monitors API", () => {
  it("creates a monitor on the user's IP camera only, checking settings per kind", async () => {
    const owner = await userWithIpCamera();
    const created = await send(owner, "POST", "/api/monitors", { kind: "auto_capture", cameraId: owner.cameraId, settings: { query: " person ", intervalSeconds: 3600 } });
    expect(created.status).toBe(201);
    const monitor = await created.json();
    expect(monitor).toMatchObject({
      kind: "auto_capture",
      cameraId: owner.cameraId,
      cameraName: "Stage left",
      name: "Auto-capture: person on Stage left",
      settings: { query: "person", intervalSeconds: 3600, minGapSeconds: 5 },
      state: "running",
      failures: 0,
      recordingId: null,
    });

    // A webcam (not an IP camera) and another user's IP camera are refused under cameraId.
    const webcam = (await (await send(owner, "POST", "/api/cameras", { name: "Desk", model: "Webcam", deviceId: "abc" })).json()) as { id: string };
    const stranger = await userWithIpCamera();
    for (const cameraId of [webcam.id, stranger.cameraId]) {
      const refused = await send(owner, "POST", "/api/monitors", { kind: "story", cameraId });
      expect(refused.status).toBe(422);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
      expect((await refused.json()).errors.cameraId).toEqual(["not one of your IP cameras"]);
    }

    const tooFast = await send(owner, "POST", "/api/monitors", { kind: "people_count", cameraId: owner.cameraId, settings: { intervalSeconds: 1 } });
    expect(tooFast.status).toBe(400);
    expect((await tooFast.json()).errors["settings.intervalSeconds"]).toEqual(["Interval must be at least 2 s"]);
    const noQuery = await send(owner, "POST", "/api/monitors", { kind: "auto_capture", cameraId: owner.cameraId, settings: { query: "  " } });
    expect(noQuery.status).toBe(400);
    expect((await noQuery.json()).errors["settings.query"]).toBeDefined();

    // A people-count monitor writes to a counting session of its own, named after the camera.
    const counting = await (await send(owner, "POST", "/api/monitors", { kind: "people_count", cameraId: owner.cameraId, settings: { intervalSeconds: 3600 } })).json();
    const session = await (await owner.client.get(`/api/people-count/sessions/${counting.recordingId}`)).json();
    expect(session).toMatchObject({ cameraId: owner.cameraId, cameraName: "Stage left", isActive: true });
    expect((await (await owner.client.get("/api/monitors")).json()).map((m: { id: string }) => m.id)).toEqual([monitor.id, counting.id]);
  });

  it("renames, re-checks merged settings, pauses and resumes", async () => {
    const owner = await userWithIpCamera();
    const monitor = await (
      await send(owner, "POST", "/api/monitors", { kind: "auto_capture", cameraId: owner.cameraId, settings: { query: "dog", intervalSeconds: 3600 } })
    ).json();
    const renamed = await send(owner, "PATCH", `/api/monitors/${monitor.id}`, { name: "Back door", settings: { minGapSeconds: 30 } });
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: "Back door", settings: { query: "dog", intervalSeconds: 3600, minGapSeconds: 30 } });
    const bad = await send(owner, "PATCH", `/api/monitors/${monitor.id}`, { settings: { intervalSeconds: 0 } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors["settings.intervalSeconds"]).toEqual(["Interval must be at least 2 s"]);
    expect((await (await owner.client.get(`/api/monitors/${monitor.id}`)).json()).settings.intervalSeconds).toBe(3600);

    const paused = await send(owner, "POST", `/api/monitors/${monitor.id}/pause`);
    expect(await paused.json()).toMatchObject({ state: "paused", nextRunAt: null });
    const resumed = await send(owner, "POST", `/api/monitors/${monitor.id}/resume`);
    expect(await resumed.json()).toMatchObject({ state: "running", failures: 0 });
  });

  it("lets nobody else see or touch a monitor", async () => {
    const owner = await userWithIpCamera();
    const monitor = await (await send(owner, "POST", "/api/monitors", { kind: "story", cameraId: owner.cameraId, settings: { intervalSeconds: 3600 } })).json();
    const other = await signUpUser();
    expect(await (await other.client.get("/api/monitors")).json()).toEqual([]);
    for (const [method, path, body] of [
      ["GET", `/api/monitors/${monitor.id}`],
      ["PATCH", `/api/monitors/${monitor.id}`, { name: "mine now" }],
      ["POST", `/api/monitors/${monitor.id}/pause`],
      ["POST", `/api/monitors/${monitor.id}/resume`],
      ["DELETE", `/api/monitors/${monitor.id}`],
    ] as const) {
      const answer = await send(other, method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect(await (await owner.client.get(`/api/monitors/${monitor.id}`)).json()).toMatchObject({ name: monitor.name });
  });

  it("finishes a deleted monitor's story, and deletes a camera's monitors with the camera", async () => {
    const owner = await userWithIpCamera();
    const story = await (await send(owner, "POST", "/api/monitors", { kind: "story", cameraId: owner.cameraId, settings: { intervalSeconds: 3600 } })).json();
    expect((await send(owner, "DELETE", `/api/monitors/${story.id}`)).status).toBe(204);
    expect((await owner.client.get(`/api/monitors/${story.id}`)).status).toBe(404);
    expect(await (await owner.client.get(`/api/stories/${story.recordingId}`)).json()).toMatchObject({ isActive: false });

    const counting = await (await send(owner, "POST", "/api/monitors", { kind: "people_count", cameraId: owner.cameraId, settings: { intervalSeconds: 3600 } })).json();
    expect((await send(owner, "DELETE", `/api/cameras/${owner.cameraId}`)).status).toBe(204);
    expect((await owner.client.get(`/api/monitors/${counting.id}`)).status).toBe(404);
    expect(await (await owner.client.get("/api/monitors")).json()).toEqual([]);
    expect(await (await owner.client.get(`/api/people-count/sessions/${counting.recordingId}`)).json()).toMatchObject({ isActive: false });
  });
});
