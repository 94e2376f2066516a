// The browser's typed client (app/lib/api) against the real app: each resource module reaches its route, and every
// answer passes the client's check against the catalogue's success schema (on in tests), so a server answer that
// drifts from its schema, or a client module that calls the wrong path, fails here.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { alertsApi } from "#app/lib/api/alerts";
import { camerasApi } from "#app/lib/api/cameras";
import { ApiError, errorDetail } from "#app/lib/api/errors";
import { featureRequestsApi } from "#app/lib/api/feature-requests";
import { lutsApi } from "#app/lib/api/luts";
import { peopleCountApi } from "#app/lib/api/people-count";
import { photosApi } from "#app/lib/api/photos";
import { presetsApi } from "#app/lib/api/ptz";
import { storiesApi } from "#app/lib/api/stories";
import { visionApi } from "#app/lib/api/vision";
import { webhooksApi } from "#app/lib/api/webhooks";
import { signUpUser } from "../support/client";
import { jpegDataUrl } from "../support/images";

beforeAll(async () => {
  const user = await signUpUser();
  const page = new URL("/studio", user.client.baseUrl);
  const networkFetch = globalThis.fetch;
  // The studio page: the client resolves the catalogue's paths against it, and its requests carry what a browser adds
  // on a same-origin request by itself (the session cookie, and Origin for the CSRF check). Real HTTP all the same.
  vi.stubGlobal("location", page);
  vi.stubGlobal("fetch", (input: URL, init: RequestInit = {}) =>
    networkFetch(input, { ...init, headers: { ...(init.headers as Record<string, string> | undefined), cookie: user.client.cookieHeader, origin: page.origin } }),
  );
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe("the typed client against the app", () => {
  it("cameras, presets, photos with the next page's cursor", async () => {
    const camera = await camerasApi.create({ name: "Desk", model: "", status: "online" });
    expect((await camerasApi.rename(camera.id, "Desk 2")).name).toBe("Desk 2");
    expect((await camerasApi.setVideo(camera.id, { videoWidth: 1280, videoHeight: 720, frameRate: 30 })).id).toBe(camera.id);
    expect((await camerasApi.list()).map((c) => c.id)).toContain(camera.id);
    expect(await presetsApi.list(camera.id)).toEqual([]);

    const imageData = await jpegDataUrl();
    const first = await photosApi.create({ cameraId: camera.id, imageData });
    const second = await photosApi.create({ cameraId: camera.id, imageData, captureMode: "burst" });
    const page = await photosApi.list({ limit: 1, cursor: null });
    expect(page.items.map((p) => p.id)).toEqual([second.id]);
    expect(page.nextCursor).toEqual(expect.any(String));
    const next = await photosApi.list({ limit: 1, cursor: page.nextCursor });
    expect(next.items.map((p) => p.id)).toEqual([first.id]);
    expect((await photosApi.get(first.id)).imageData).toMatch(/^data:image\/jpeg;base64,/);
    await expect(photosApi.remove(first.id)).resolves.toBeUndefined();
    await expect(camerasApi.remove(camera.id)).resolves.toBeUndefined();
  });

  it("stories and their captions, people counting sessions", async () => {
    const story = await storiesApi.create({ cameraId: null, cameraName: null, title: "Walk" });
    expect((await storiesApi.rename(story.id, "Evening walk")).title).toBe("Evening walk");
    await storiesApi.addCaption(story.id, "A dog crosses the road.", null);
    expect((await storiesApi.captions(story.id)).map((c) => c.caption)).toEqual(["A dog crosses the road."]);
    expect(await storiesApi.photos(story.id)).toEqual([]);
    expect((await storiesApi.finish(story.id)).id).toBe(story.id);
    expect((await storiesApi.list()).map((s) => s.id)).toContain(story.id);

    const session = await peopleCountApi.create({ cameraId: null, cameraName: null });
    expect((await peopleCountApi.session(session.id)).id).toBe(session.id);
    expect(await peopleCountApi.snapshots(session.id)).toEqual([]);
    expect((await peopleCountApi.finish(session.id)).id).toBe(session.id);
    expect((await peopleCountApi.sessions()).map((s) => s.id)).toContain(session.id);
  });

  it("LUTs, webhooks, alerts, the free calls and feature requests", async () => {
    expect((await lutsApi.list()).some((lut) => lut.builtin)).toBe(true);
    expect(await webhooksApi.settings()).toEqual({ webhookUrl: null, webhookEnabled: false, webhookEventType: "simple" });
    expect((await webhooksApi.secret()).secret).toMatch(/^whsec_/);
    expect((await webhooksApi.deliveries()).deliveries).toEqual([]);
    expect((await alertsApi.status()).contacts).toEqual([]);
    expect(await alertsApi.rules()).toEqual([]);
    expect((await visionApi.freeCalls()).used).toBe(0);
    expect((await featureRequestsApi.create("Dark mode", "Please")).title).toBe("Dark mode");
  });

  it("raises the server's problem as ApiError", async () => {
    const error = await storiesApi.get(randomUUID()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(errorDetail(error, "fallback")).not.toBe("fallback");
  });
});
