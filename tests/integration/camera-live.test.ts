// The live view WebSocket and the snapshot route on the real app, against the fake IP camera on loopback:
// session, Origin and ownership checks, one pull for two viewers, the message order, full-resolution snapshots.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import WebSocket from "ws";
import { startFakeIpCamera, type FakeIpCamera } from "../fakes/ip-camera/camera";
import { signUpUser, type TestUser } from "../support/client";
import { useSharedDatabase as openSharedDatabase } from "../support/in-process";
import { fakeCameraRow, insertIpCamera } from "../support/ip-cameras";
import { startApp } from "../support/stack";
import { camerasApi } from "#app/lib/api/cameras";
import { Fmp4Splitter } from "#server/cameras/stream/fmp4-splitter";

const baseUrl = inject("baseUrl");
const liveUrl = (id: string, app = baseUrl) => `${app.replace(/^http/, "ws")}/api/cameras/${id}/live`;

interface Watcher {
  ws: WebSocket;
  /** In arrival order: "status:<state>", "init", "fragment" or "keyframe". */
  kinds: string[];
  statuses: { status: string; mime: string | null; reason: string | null }[];
  closed: Promise<{ code: number; reason: string }>;
  refused: Promise<number>;
}

function watch(id: string, headers: Record<string, string>, app = baseUrl): Watcher {
  const ws = new WebSocket(liveUrl(id, app), { headers });
  const splitter = new Fmp4Splitter();
  const watcher: Watcher = {
    ws,
    kinds: [],
    statuses: [],
    closed: new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() }))),
    refused: new Promise((resolve) => {
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
    }),
  };
  ws.on("error", () => {});
  ws.on("message", (data: Buffer, isBinary) => {
    if (!isBinary) {
      const status = JSON.parse(data.toString()) as Watcher["statuses"][number];
      watcher.statuses.push(status);
      watcher.kinds.push(`status:${status.status}`);
      return;
    }
    for (const segment of splitter.push(data)) watcher.kinds.push(segment.kind === "init" ? "init" : segment.keyframe ? "keyframe" : "fragment");
  });
  return watcher;
}

/** The shared app's database, for rows only the Add IP Camera API (with a real camera to probe) would write. */
async function sharedDb() {
  await openSharedDatabase();
  return (await import("#db/index")).db();
}

let camera: FakeIpCamera;
let owner: TestUser;
let cameraId: string;
const own = () => ({ cookie: owner.client.cookieHeader, origin: baseUrl });

beforeAll(async () => {
  camera = await startFakeIpCamera();
  owner = await signUpUser();
  cameraId = await insertIpCamera(await sharedDb(), owner.id, fakeCameraRow(camera));
});
afterAll(() => camera?.close());

describe("GET /api/cameras/{id}/live (WebSocket)", () => {
  it("streams to two viewers from one pull: a status with the mime, the init segment, then fragments from a keyframe", async () => {
    const a = watch(cameraId, own());
    const b = watch(cameraId, own());
    const fragments = (viewer: Watcher) => viewer.kinds.filter((k) => k === "keyframe" || k === "fragment").length;
    await expect.poll(() => Math.min(fragments(a), fragments(b)), { timeout: 20_000 }).toBeGreaterThan(5);
    expect(camera.sessions()).toHaveLength(1);
    for (const viewer of [a, b]) {
      const init = viewer.kinds.indexOf("init");
      expect(init).toBeGreaterThan(0);
      // The status right before the init segment carries its mime.
      const before = viewer.statuses[viewer.kinds.slice(0, init).filter((k) => k.startsWith("status")).length - 1];
      expect(before?.mime).toMatch(/^video\/mp4; codecs="avc1\./);
      expect(viewer.kinds.slice(init + 1).find((k) => k === "keyframe" || k === "fragment")).toBe("keyframe");
      expect(viewer.statuses.at(-1)?.status).toBe("online");
    }
    const row = await (await owner.client.get(`/api/cameras/${cameraId}`)).json();
    expect(row).toMatchObject({ status: "online", statusReason: null });
    a.ws.close();
    b.ws.close();
  });

  it("closes with 4401 without a session and 4404 for another user's camera or one that is not an IP camera", async () => {
    expect((await watch(cameraId, { origin: baseUrl }).closed).code).toBe(4401);
    const stranger = await signUpUser();
    expect((await watch(cameraId, { cookie: stranger.client.cookieHeader, origin: baseUrl }).closed).code).toBe(4404);
    const webcam = await (await owner.client.post("/api/cameras", { name: "Desk", model: "WebRTC Webcam", status: "online", deviceId: "x" })).json();
    expect((await watch(webcam.id, own()).closed).code).toBe(4404);
  });

  it("refuses an upgrade from another site's page (cross-site WebSocket hijacking) with 403", async () => {
    const hostile = watch(cameraId, { cookie: owner.client.cookieHeader, origin: "https://evil.example" });
    expect(await hostile.refused).toBe(403);
  });

  it("answers a plain GET (no upgrade) with 426", async () => {
    const response = await owner.client.get(`/api/cameras/${cameraId}/live`);
    expect(response.status).toBe(426);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });
});

describe("GET /api/cameras/{id}/snapshot", () => {
  it("answers a JPEG at the main stream's full resolution, 404 for another user, 503 naming the reason", async () => {
    const sharp = (await import("sharp")).default;
    const response = await owner.client.get(`/api/cameras/${cameraId}/snapshot`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({ format: "jpeg", width: 1280, height: 720 });

    const stranger = await signUpUser();
    expect((await stranger.client.get(`/api/cameras/${cameraId}/snapshot`)).status).toBe(404);

    const locked = await insertIpCamera(await sharedDb(), owner.id, fakeCameraRow(camera, { password: "wrong" }));
    const refused = await owner.client.get(`/api/cameras/${locked}/snapshot`);
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toContain("authentication failed");
  });
});

describe("camerasApi.snapshot (the browser's client)", () => {
  it("resolves to the JPEG as a Blob, and rejects with the problem's status", async () => {
    const networkFetch = globalThis.fetch;
    const page = new URL("/studio", baseUrl);
    vi.stubGlobal("location", page);
    vi.stubGlobal("fetch", (input: URL, init: RequestInit = {}) => networkFetch(input, { ...init, headers: { cookie: owner.client.cookieHeader, origin: page.origin } }));
    try {
      const blob = await camerasApi.snapshot(cameraId);
      expect(blob.type).toBe("image/jpeg");
      expect(blob.size).toBeGreaterThan(1000);
      await expect(camerasApi.snapshot(randomUUID())).rejects.toMatchObject({ status: 404 });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe("shutdown", () => {
  it("stops every camera's ffmpeg and closes its viewers (1001) when the app stops", async () => {
    // A second app on the shared database (several processes on one PostgreSQL is a supported set-up).
    const app = await startApp({
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: inject("dataDir"),
      PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
      PTZ_ALLOWED_PORTS: "1024-65535",
      CAMERA_STREAM_IDLE_MS: "600000",
    });
    let stopped = false;
    try {
      const user = await signUpUser({ baseUrl: app.url });
      const id = await insertIpCamera(await sharedDb(), user.id, fakeCameraRow(camera));
      const viewer = watch(id, { cookie: user.client.cookieHeader, origin: app.url }, app.url);
      await expect.poll(() => viewer.statuses.at(-1)?.status, { timeout: 20_000 }).toBe("online");
      await expect.poll(() => camera.sessions().length).toBeGreaterThan(0);
      expect(await app.stop()).toBe(0);
      stopped = true;
      expect((await viewer.closed).code).toBe(1001);
      // Had ffmpeg outlived the app, its RTSP session would still be open.
      await expect.poll(() => camera.sessions().length, { timeout: 10_000 }).toBe(0);
    } finally {
      if (!stopped) await app.stop();
    }
  });
});
