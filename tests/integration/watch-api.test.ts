// "Watch with local vision"'s API on the shared app (issue 30): the setting's defaults, its checks and their messages
// under the field, IP cameras only, the deployment detector's classes only, and /metrics off without a token. The
// pipeline itself: watch-pipeline.test.ts; who may touch whose camera: tests/security/route-matrix.test.ts.
import { describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { closedCameraRow, insertIpCamera } from "../support/ip-cameras";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";

async function sharedDb() {
  await openSharedDatabase();
  return (await import("#db/index")).db();
}

const put = (user: TestUser, path: string, json: unknown) => user.client.request("PUT", path, { json, headers: { origin: user.client.baseUrl } });
const on = { enabled: true, labels: ["person", "car"], fps: 8, width: 480 };

describe("watch with local vision: the setting", () => {
  it("is off by default, is switched on and off, and reads back what was chosen", async () => {
    const user = await signUpUser();
    const cameraId = await insertIpCamera(await sharedDb(), user.id, closedCameraRow("Hall"));
    const before = await user.client.get(`/api/cameras/${cameraId}/watch`);
    expect(before.status).toBe(200);
    expect(await before.json()).toEqual({
      enabled: false,
      labels: ["person"],
      fps: 5,
      width: 640,
      status: "off",
      stats: null,
      statsAt: null,
      lastEventAt: null,
      follow: { enabled: false, label: "person", startZoneId: null, returnPreset: null, lostSeconds: 5, zoom: false, targetHeight: 0.4, maxSpeed: 12, pausedAt: null },
    });

    const saved = await put(user, `/api/cameras/${cameraId}/watch`, { ...on, labels: ["person", "car", "person"] });
    expect(saved.status).toBe(200);
    // Waiting until a process writes its first figures; a class named twice is kept once.
    expect(await saved.json()).toMatchObject({ enabled: true, labels: ["person", "car"], fps: 8, width: 480, status: "waiting", stats: null });

    const off = await put(user, `/api/cameras/${cameraId}/watch`, { ...on, enabled: false });
    expect(await off.json()).toMatchObject({ enabled: false, status: "off", labels: ["person", "car"] });
    expect(await (await user.client.get(`/api/cameras/${cameraId}/watch`)).json()).toMatchObject({ enabled: false, fps: 8, width: 480 });
  });

  it("refuses bad values with a message under their field, and changes nothing", async () => {
    const user = await signUpUser();
    const cameraId = await insertIpCamera(await sharedDb(), user.id, closedCameraRow("Yard"));
    const cases: Array<[unknown, string, number]> = [
      [{ ...on, fps: 0 }, "fps", 400],
      [{ ...on, fps: 16 }, "fps", 400],
      [{ ...on, width: 100 }, "width", 400],
      [{ ...on, labels: [] }, "labels", 400],
      [{ ...on, labels: ["unicorn"] }, "labels", 422],
      [{ ...on, enabled: "yes" }, "enabled", 400],
    ];
    for (const [body, field, status] of cases) {
      const answer = await put(user, `/api/cameras/${cameraId}/watch`, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      const problem = (await answer.json()) as { errors: Record<string, string[]> };
      expect(
        Object.keys(problem.errors).some((key) => key === field || key.startsWith(`${field}.`)),
        JSON.stringify(problem),
      ).toBe(true);
    }
    const unicorn = await put(user, `/api/cameras/${cameraId}/watch`, { ...on, labels: ["unicorn"] });
    expect(((await unicorn.json()) as { detail: string }).detail).toBe('The detector (CenterNet (COCO, built in)) does not know "unicorn"');
    expect(await (await user.client.get(`/api/cameras/${cameraId}/watch`)).json()).toMatchObject({ enabled: false, status: "off" });
  });

  it("is for IP cameras only: a webcam's local vision runs in the studio", async () => {
    const user = await signUpUser();
    const webcam = await user.client.post("/api/cameras", { name: "Desk", thumbnail: await jpegDataUrl(64, 48) }, { origin: user.client.baseUrl });
    const { id } = (await webcam.json()) as { id: string };
    const answer = await put(user, `/api/cameras/${id}/watch`, on);
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({
      detail: "Only an IP camera can be watched by the server: a webcam's local vision runs in the studio",
      errors: { enabled: ["Only an IP camera can be watched by the server: a webcam's local vision runs in the studio"] },
    });
  });
});

describe("GET /metrics", () => {
  it("is off (404 problem) while no METRICS_TOKEN is set", async () => {
    const user = await signUpUser();
    const answer = await user.client.get("/metrics");
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ detail: "Metrics are off: set METRICS_TOKEN to turn them on" });
  });
});
