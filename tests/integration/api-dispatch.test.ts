// API_DIRECT_DISPATCH=false (every /api request through React Router) answers exactly as the direct dispatch does
// (docs/decisions/0001-api-dispatch.md): the shared app dispatches directly, a second app here does not.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, signUpUser, uniqueUsername } from "../support/client";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";

let viaRouter: TestApp;

beforeAll(async () => {
  viaRouter = await startApp({
    API_DIRECT_DISPATCH: "false",
    DATABASE_URL: await createOwnDatabase(),
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: tempDir("api-dispatch"),
    // As the shared app is started (tests/support/global-setup.ts), so the two differ only in the switch.
    PTZ_ALLOWED_NETWORKS: "127.0.0.0/8",
    PTZ_ALLOWED_PORTS: "1024-65535",
    ALLOWED_HOSTS: "framewise.example",
  });
  // The first account of a database is its admin; on the shared database that was the founding admin.
  await signUpUser({ baseUrl: viaRouter.url });
});

afterAll(async () => {
  await viaRouter?.stop();
});

interface Answer {
  status: number;
  contentType: string | null;
  allow: string | null;
  body: unknown;
}

/** Status, content type, Allow and body, with ids and timestamps replaced by the order they first appear in. */
async function answerOf(response: Response): Promise<Answer> {
  const ids = new Map<string, string>();
  const text = (await response.text())
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
      if (!ids.has(id)) ids.set(id, `<id${ids.size + 1}>`);
      return ids.get(id)!;
    })
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, "<time>")
    .replace(/\?v=[\w-]+/g, "?v=<version>");
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: compared as text
  }
  return { status: response.status, contentType: response.headers.get("content-type"), allow: response.headers.get("allow"), body };
}

describe("API dispatch switch", () => {
  it("answers every kind of /api request alike with the direct dispatch on and off", async () => {
    const username = uniqueUsername("dispatch"); // separate databases: the same name on both keeps bodies equal
    const direct = await signUpUser({ username });
    const routed = await signUpUser({ username, baseUrl: viaRouter.url });
    const clients = [direct.client, routed.client];
    const strangers = [new Client(), new Client(viaRouter.url)];

    /** Sends the same request to both apps and expects the same answer; returns the direct app's parsed body. */
    const both = async (method: string, path: (i: number) => string, json?: unknown, anonymous = false) => {
      const answers: Answer[] = [];
      const bodies: unknown[] = [];
      for (const i of [0, 1]) {
        const client = anonymous ? strangers[i]! : clients[i]!;
        const response = await client.request(method, path(i), json === undefined ? {} : { json });
        const raw = await response.clone().text();
        answers.push(await answerOf(response));
        bodies.push(response.ok && raw && response.headers.get("content-type")?.includes("json") ? JSON.parse(raw) : undefined);
      }
      expect(answers[1], `${method} ${path(0)}`).toEqual(answers[0]);
      return bodies as Array<{ id?: string } | undefined>;
    };
    const same = (path: string) => () => path;

    await both("GET", same("/api/cameras"), undefined, true); // 401
    await both("GET", same("/api/cameras")); // empty list
    const created = await both("POST", same("/api/cameras"), { name: "  Front door ", model: "WebRTC Webcam", status: "online" }); // 201
    const ids = created.map((camera) => camera!.id!);
    await both("GET", same("/api/cameras")); // the list with it
    await both("GET", (i) => `/api/cameras/${ids[i]}`); // a route with params
    await both("PATCH", (i) => `/api/cameras/${ids[i]}`, { videoWidth: 1280, videoHeight: 720, frameRate: 30 });
    await both("GET", same(`/api/cameras/${randomUUID()}`)); // 404: another id
    await both("GET", same("/api/cameras/not-a-uuid")); // a malformed id
    await both("POST", same("/api/cameras"), { name: "   " }); // 400 naming the field
    await both("POST", same("/api/cameras"), "not an object"); // 400: wrong body shape
    await both("HEAD", same("/api/cameras")); // the loader's status and headers, no body
    await both("GET", same("/api/cameras?limit=1&unknown=x")); // a query string
    await both("DELETE", same("/api/cameras")); // 405
    await both("GET", same("/api/auth/login")); // 405 on an action-only operation
    await both("GET", same("/api/cameras/")); // trailing slash
    await both("GET", same("/api/CAMERAS")); // letter case
    await both("GET", same("/api/no-such-thing")); // no route
    await both("GET", (i) => `/api/cameras/${ids[i]}/thumbnail`); // a nested route with params, nothing stored
    await both("DELETE", (i) => `/api/cameras/${ids[i]}`); // 204
    await both("DELETE", (i) => `/api/cameras/${ids[i]}`); // 404: gone
    await both("GET", same("/api/auth/me"));
  });
});
