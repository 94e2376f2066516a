// Every /api operation in the OpenAPI document × {anonymous, owner (a non-admin), another user, admin}.
// The route list comes from /api/openapi.json, so a new route is covered (or this test names what it lacks).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { Client, signInAdmin, signUpUser, type TestUser } from "../support/client";
import { jpegBytes } from "../support/images";
import { useSharedDatabase } from "../support/in-process";
import { closedCameraRow, insertIpCamera } from "../support/ip-cameras";
import { createOwnerData, type OwnerData } from "./owner-data";
import { openTestBlobStore } from "../support/blob-store";

interface OperationDoc {
  security?: unknown[];
  requestBody?: unknown;
  responses: Record<string, unknown>;
}
interface Op {
  method: string;
  path: string;
  doc: OperationDoc;
}

/**
 * Operations anyone may call without signing in, and why. The test checks this list against the document's
 * `security: []` both ways, so making a route public is a deliberate edit here.
 */
const PUBLIC: Record<string, string> = {
  "POST /api/auth/signup": "creating an account is how one gets a session",
  "POST /api/auth/login": "signing in is how one gets a session",
  "POST /api/auth/logout": "ends whatever session the cookie names; harmless without one (204)",
  "GET /api/openapi.json": "the API description is public documentation",
  "GET /api/scoreboard/live.json": "the live scoreboard is a public feed for OBS and overlay tools, by userId",
  "GET /api/scoreboard/live.html": "the OBS browser-source overlay loads without cookies",
  "GET /api/scoreboard/events": "the overlay's Server-Sent Events, also loaded without cookies",
  "GET /api/insights/shared/{id}": "a share link's report opens with the link's signature, not a session; without a valid one it is 404",
};

/** Operations that act on the caller's own account only: they are run with throwaway accounts. */
/** What the owner gets from a GET that is theirs but cannot answer 200 here, and why. */
const OWNER_STATUS: Record<string, number> = {
  "GET /api/cameras/{id}/live": 426, // a WebSocket: a plain GET is told to upgrade
  "GET /api/cameras/{id}/snapshot": 503, // the matrix's IP camera points at a closed loopback port
  "GET /api/local-detector/model": 404, // the shared database's deployment runs the built-in detector: no model file
};

/** What the admin gets from an admin-only operation that cannot answer 200 to the matrix's request, and why. */
const ADMIN_STATUS: Record<string, number> = {
  "POST /api/admin/detector-models": 415, // an upload is multipart; the JSON body is refused (tests/integration/local-detector.test.ts uploads)
};

const SELF: Record<string, string> = {
  "DELETE /api/auth/me": "deletes the caller's own account",
};

/** The owner's row each path parameter names, by the path's resource. */
function pathFor(op: Op, data: OwnerData): string {
  const { ids } = data;
  const resource: Array<[RegExp, string]> = [
    // The live view, snapshots, server-side captures and the connection exist only for IP cameras.
    [/^\/api\/cameras\/\{id\}\/(live|snapshot|capture|ip)$/, ids.ipCamera!],
    [/^\/api\/cameras\/\{id\}/, ids.camera],
    [/^\/api\/presets\/\{id\}/, ids.preset],
    [/^\/api\/photos\/\{id\}/, ids.photo],
    [/^\/api\/stories\/\{id\}/, ids.story],
    [/^\/api\/people-count\/sessions\/\{id\}/, ids.session],
    [/^\/api\/people-count\/snapshots\/\{id\}/, ids.snapshot],
    [/^\/api\/luts\/\{id\}/, ids.lut],
    [/^\/api\/alerts\/rules\/\{id\}/, ids.alertRule],
    [/^\/api\/monitors\/\{id\}/, ids.monitor!],
    [/^\/api\/zones\/\{id\}/, ids.zone],
    [/^\/api\/lines\/\{id\}/, ids.line],
    [/^\/api\/insights\/sites\/\{id\}/, ids.site],
    [/^\/api\/insights\/windows\/\{id\}/, ids.window],
    [/^\/api\/insights\/(shares|shared)\/\{id\}/, ids.share],
    [/^\/api\/insights\/schedules\/\{id\}/, ids.schedule!],
    // Contacts are named by channel, not id: the caller can only ever reach their own (so no 404 is due).
    [/^\/api\/alerts\/contacts\/\{channel\}/, "email"],
    // Detector models are the deployment's, not a user's: an id that names none (admins get 404, others 403).
    [/^\/api\/admin\/detector-models\/\{id\}/, "00000000-0000-4000-8000-000000000000"],
    [/^\/api\/saved-searches\/\{id\}/, ids.savedSearch!],
  ];
  if (!op.path.includes("{")) return op.path;
  const match = resource.find(([pattern]) => pattern.test(op.path));
  if (!match) throw new Error(`${op.method} ${op.path}: add the owner's row for this path parameter to the route matrix`);
  return op.path.replace(/\{\w+\}/, match[1]);
}

/** Valid bodies for operations that take both an id and a body: validation must not hide the ownership check. */
const BODIES: Record<string, unknown> = {
  "PUT /api/cameras/{id}": { name: "pwned" },
  "PATCH /api/cameras/{id}": { videoWidth: 640, videoHeight: 480, frameRate: 30 },
  "PUT /api/cameras/{id}/ip": { streamUrl: "rtsp://127.0.0.1:9/pwned" },
  "PATCH /api/stories/{id}": { title: "pwned" },
  "POST /api/stories/{id}/captions": { caption: "pwned" },
  "PATCH /api/people-count/snapshots/{id}": { correctedCount: 99 },
  "POST /api/people-count/sessions/{id}/snapshots": { imageData: "data:image/jpeg;base64,AAAA", count: 99 },
  "PUT /api/alerts/rules/{id}": { kind: "detection", object: "pwned", email: true, sms: false },
  "PATCH /api/monitors/{id}": { name: "pwned" },
  "POST /api/cameras/{id}/zones": {
    name: "pwned",
    polygon: [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
    ],
  },
  "POST /api/cameras/{id}/lines": { name: "pwned", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } },
  "PUT /api/cameras/{id}/watch": { enabled: true, labels: ["person"], fps: 5, width: 640 },
  "PUT /api/zones/{id}": {
    name: "pwned",
    polygon: [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
    ],
  },
  "PUT /api/lines/{id}": { name: "pwned", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } },
  "PUT /api/insights/sites/{id}": { name: "pwned", timeZone: "UTC", cameraIds: ["00000000-0000-4000-8000-000000000000"] },
  "POST /api/insights/sites/{id}/windows": { name: "pwned", kind: "weekly", weekdays: [1] },
  "PUT /api/insights/windows/{id}": { name: "pwned", kind: "weekly", weekdays: [1] },
  // The built-in detector, which the shared database's deployment runs anyway.
  "PUT /api/admin/local-detector": { modelId: null },
  // Events must be valid (and recent) so that only the camera's owner can be what refuses them.
  "POST /api/cameras/{id}/vision-events": {
    events: [{ type: "zone.entered", zoneId: "00000000-0000-4000-8000-000000000000", trackId: 1, label: "person", at: Date.now(), box: { x: 0, y: 0, w: 0.1, h: 0.1 } }],
  },
  "POST /api/photos/{id}/segment": { object: "pwned" },
  "POST /api/photos/{id}/edits": { kind: "cutout", object: "pwned", path: "M 0.5 0 L 1 0.5 L 0.5 1 L 0 0.5 Z", bbox: { x_min: 0.1, y_min: 0.1, x_max: 0.9, y_max: 0.9 } },
};

const key = (op: Op) => `${op.method} ${op.path}`;
const isPublic = (op: Op) => Array.isArray(op.doc.security) && op.doc.security.length === 0;
const isEventStream = (op: Op) => Object.values(op.doc.responses).some((response) => "text/event-stream" in ((response as { content?: object }).content ?? {}));
const isAdminOnly = (op: Op) => "403" in op.doc.responses && op.path.startsWith("/api/admin/");

async function send(client: Client, op: Op, data: OwnerData): Promise<{ status: number; type: string; body: string }> {
  const path = pathFor(op, data);
  const json = op.method === "GET" || op.method === "DELETE" ? undefined : (BODIES[key(op)] ?? {});
  if (isEventStream(op)) {
    // A live stream never ends: read the status and headers, then hang up.
    const controller = new AbortController();
    const response = await fetch(new URL(path, client.baseUrl), { headers: { cookie: client.cookieHeader }, signal: controller.signal });
    controller.abort();
    return { status: response.status, type: response.headers.get("content-type") ?? "", body: "" };
  }
  const response = await client.request(op.method, path, { json, headers: { origin: client.baseUrl } });
  const type = response.headers.get("content-type") ?? "";
  const body = type.startsWith("image/") ? "" : await response.text();
  return { status: response.status, type, body };
}

let ops: Op[];
let owner: TestUser;
let intruder: TestUser;
let admin: Client;
let data: OwnerData;
const counts = { anonymous: 0, owner: 0, intruder: 0, admin: 0 };

beforeAll(async () => {
  await useSharedDatabase();
  const { addSnapshot } = await import("#server/counting/service");
  const { db } = await import("#db/index");
  const blobs = await openTestBlobStore();
  const doc = (await (await fetch(`${inject("baseUrl")}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, OperationDoc>> };
  ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, opDoc]) => ({ method: method.toUpperCase(), path, doc: opDoc })));
  owner = await signUpUser();
  intruder = await signUpUser();
  admin = await signInAdmin();
  data = await createOwnerData(
    owner.client,
    async (sessionId) => (await addSnapshot(db(), blobs, owner.id, sessionId, { image: await jpegBytes(), aiCount: 3 })).snapshot.id,
    () => insertIpCamera(db(), owner.id, closedCameraRow()),
  );
  // Far in the future, so no run of the job picks it up while the matrix runs.
  const schedule = await db()
    .insertInto("insight_schedules")
    .values({
      user_id: owner.id,
      name: `Report ${data.marker}`,
      frequency: "weekly",
      recipients: ["board@example.test"],
      view: { siteId: data.ids.site },
      next_run_at: new Date("2099-01-05T07:00:00Z"),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  data.ids.schedule = schedule.id;
});

afterAll(() => {
  console.log(`route × role matrix: ${ops.length} operations; requests per role ${JSON.stringify(counts)}`);
});

/** Everything the owner can read, to compare before and after the others' attempts. */
async function ownerView() {
  const c = owner.client;
  const read = async (path: string) => (await c.get(path)).text();
  const { ids } = data;
  return Promise.all(
    [
      "/api/cameras",
      "/api/presets",
      "/api/photos",
      "/api/stories",
      `/api/stories/${ids.story}/captions`,
      "/api/people-count/sessions",
      `/api/people-count/sessions/${ids.session}/snapshots`,
      "/api/luts",
      "/api/alerts/rules",
      `/api/cameras/${ids.camera}/zones`,
      `/api/cameras/${ids.camera}/lines`,
      "/api/insights/sites",
      `/api/insights/sites/${ids.site}/windows`,
      "/api/insights/shares",
      "/api/insights/schedules",
      "/api/webhooks/settings",
      "/api/webhooks/secret",
      "/api/timeline",
      "/api/timeline/settings",
    ].map(read),
  );
}

function expectNoOwnerData(answer: { body: string }, what: string) {
  expect(answer.body, `${what} leaked the owner's data`).not.toContain(data.marker);
  expect(answer.body, `${what} leaked the owner's webhook secret`).not.toContain(data.webhookSecret);
  for (const id of Object.values(data.ids)) expect(answer.body, `${what} leaked an owner's id`).not.toContain(id);
}

describe("the route × role matrix", () => {
  it("lists exactly the document's public operations as public, each with a reason", () => {
    expect(ops.filter(isPublic).map(key).sort()).toEqual(Object.keys(PUBLIC).sort());
    expect(ops.length).toBeGreaterThan(60);
  });

  it("answers 401 problem JSON to anonymous callers on every non-public operation", async () => {
    for (const op of ops) {
      if (isPublic(op)) continue;
      const answer = await send(new Client(), op, data);
      counts.anonymous++;
      expect(answer.status, key(op)).toBe(401);
      expect(answer.type, key(op)).toContain("application/problem+json");
      expectNoOwnerData(answer, `anonymous ${key(op)}`);
    }
  });

  it("serves the owner (a non-admin) their own rows and answers 403 on admin-only operations", async () => {
    for (const op of ops) {
      if (op.method !== "GET" && !isAdminOnly(op)) continue; // reading is enough to prove the ids are right
      const answer = await send(owner.client, op, data);
      counts.owner++;
      if (isAdminOnly(op)) {
        expect(answer.status, key(op)).toBe(403);
        expect(answer.type, key(op)).toContain("application/problem+json");
      } else if (!isPublic(op)) {
        expect(answer.status, `owner ${key(op)}`).toBe(OWNER_STATUS[key(op)] ?? 200);
      }
    }
  });

  it.each([
    ["another user", () => intruder.client, "intruder" as const],
    ["an admin", () => admin, "admin" as const],
  ])("gives %s 404 for every owner's id and never the owner's data, changing nothing", async (_who, client, role) => {
    const before = await ownerView();
    for (const op of ops) {
      if (isPublic(op) || key(op) in SELF) continue;
      const answer = await send(client(), op, data);
      counts[role]++;
      expect(answer.status, `${role} ${key(op)}`).toBeLessThan(500);
      expect(answer.status, `${role} ${key(op)}`).not.toBe(401);
      if (isAdminOnly(op) && role !== "admin") {
        expect(answer.status, `${role} ${key(op)}`).toBe(403);
      } else if (op.path.includes("{id}")) {
        expect(answer.status, `${role} ${key(op)}`).toBe(404);
        expect(answer.type, `${role} ${key(op)}`).toContain("application/problem+json");
      } else if (isAdminOnly(op)) {
        expect(answer.status, `${role} ${key(op)}`).toBe(ADMIN_STATUS[key(op)] ?? 200);
      }
      // Admin lists name users (never their cameras or secrets); everything else must not show the owner's rows.
      if (!isAdminOnly(op)) expectNoOwnerData(answer, `${role} ${key(op)}`);
    }
    expect(await ownerView()).toEqual(before);
  });

  it("lets self-only operations touch only the caller's own account", async () => {
    for (const op of ops.filter((o) => key(o) in SELF)) {
      const throwaway = await signUpUser();
      const answer = await send(throwaway.client, op, data);
      expect(answer.status, key(op)).toBeLessThan(300);
      expect((await owner.client.get("/api/auth/me")).status).toBe(200);
    }
  });

  it("serves the public operations to anonymous callers without the owner's private data", async () => {
    for (const op of ops.filter(isPublic)) {
      if (op.method !== "GET") continue; // sign-up, sign-in and logout are covered by the auth suites
      const answer = await send(new Client(), op, data);
      expect(answer.status, key(op)).toBeLessThan(500);
      expectNoOwnerData(answer, `anonymous ${key(op)}`);
    }
  });
});
