// A route bound to its catalogue operation: input parsed with the operation's schemas, path params checked, access
// enforced, and (with checks on, as in development and the test suites) an answer outside the schema is a 500.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "#app/schemas/operations/define";
import type * as ConfigModule from "../config";
import type * as ApiModule from "./api";
import type * as OperationModule from "./operation";
import type { BoundHandler } from "./operation";

let apiDispatcher: typeof ApiModule.apiDispatcher;
let handle: typeof OperationModule.handle;
let loadConfig: typeof ConfigModule.loadConfig;

beforeAll(async () => {
  // Set before the config is first read, so no secrets file is written and nothing is logged.
  process.env.LOG_LEVEL = "silent";
  process.env.SESSION_SECRET ??= "unit-test-session-secret";
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  ({ apiDispatcher } = await import("./api"));
  ({ handle } = await import("./operation"));
  ({ loadConfig } = await import("../config"));
});

const item = z.object({ id: z.string(), title: z.string().min(1) });
const rename = defineOperation({
  method: "patch",
  path: "/api/things/{id}",
  summary: "Rename a thing",
  tag: "Test",
  access: "public",
  body: z.object({ title: z.string().min(1, "Give it a title") }),
  success: { status: 200, schema: item },
});
const list = defineOperation({
  method: "get",
  path: "/api/things",
  summary: "Things",
  tag: "Test",
  access: "public",
  query: z.object({ limit: z.coerce.number().int().max(10) }),
  success: { status: 200, schema: z.array(item) },
});
const mine = defineOperation({ method: "get", path: "/api/things/mine", summary: "Mine", tag: "Test", access: "user", success: { status: 200, schema: z.array(item) } });
const image = defineOperation({
  method: "get",
  path: "/api/things/{id}/image",
  summary: "Image",
  tag: "Test",
  access: "public",
  success: { status: 200, schema: null, contentType: "image/*" },
});
const thumbnail = defineOperation({
  method: "get",
  path: "/api/things/{id}/thumbnail",
  summary: "Thumbnail",
  tag: "Test",
  access: "public",
  success: { status: 200, schema: null, contentType: "image/*" },
});
const remove = defineOperation({ method: "delete", path: "/api/things/{id}", summary: "Delete", tag: "Test", access: "public", success: { status: 204, schema: null } });

const ID = "0F8FAD5B-D9CB-469F-A165-70867728950E";
/** The dispatcher of a catalogue holding the one operation the handler is bound to. */
const one = (handler: BoundHandler) => apiDispatcher({ test: { it: handler.operation } }, { test: { it: handler } });
const call = (route: ReturnType<typeof one>, method: string, url: string, init: { body?: string; params?: Record<string, string> } = {}) =>
  route({
    request: new Request(`http://localhost${url}`, { method, ...(init.body === undefined ? {} : { body: init.body, headers: { "content-type": "application/json" } }) }),
    params: init.params ?? {},
  });

describe("handle(operation, …)", () => {
  it("parses the body with the operation's schema and answers its success status; bad input is the usual 400 problem", async () => {
    const route = one(handle(rename, { resource: "Thing" }, async ({ params, body }) => ({ id: params.id, title: body.title })));
    const ok = await call(route, "PATCH", `/api/things/${ID}`, { body: JSON.stringify({ title: "New" }), params: { id: ID } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: ID.toLowerCase(), title: "New" });

    const bad = await call(route, "PATCH", `/api/things/${ID}`, { body: JSON.stringify({ title: "" }), params: { id: ID } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ status: 400, detail: "title: Give it a title", errors: { title: ["Give it a title"] } });
    expect((await call(route, "PATCH", `/api/things/${ID}`, { body: "{", params: { id: ID } })).status).toBe(400);
  });

  it("answers 404 for a path parameter that cannot name a row", async () => {
    const route = one(handle(rename, { resource: "Thing" }, async ({ body }) => ({ id: "x", title: body.title })));
    const response = await call(route, "PATCH", "/api/things/nope", { body: JSON.stringify({ title: "New" }), params: { id: "nope" } });
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toBe("Thing not found");
  });

  it("parses the query string with the operation's query schema", async () => {
    const route = one(handle(list, async ({ query }) => Array.from({ length: query.limit }, (_, i) => ({ id: String(i), title: "t" }))));
    expect(await (await call(route, "GET", "/api/things?limit=2")).json()).toHaveLength(2);
    const bad = await call(route, "GET", "/api/things?limit=11");
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()).errors)).toEqual(["limit"]);
  });

  it("asks for a session when the operation's access is user (401 for an anonymous caller)", async () => {
    const route = one(handle(mine, async () => []));
    const response = await call(route, "GET", "/api/things/mine");
    expect(response.status).toBe(401);
  });

  it("refuses (500, logged) an answer its success schema does not allow, with checks on", async () => {
    // @ts-expect-error: the compiler already refuses the wrong shape; the run-time check covers what types cannot see
    const route = one(handle(list, async () => [{ id: 1, title: "" }]));
    const response = await call(route, "GET", "/api/things?limit=1");
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });

  it("checks what the client will read (after JSON), and lets a Response of the handler's own through", async () => {
    const dated = defineOperation({ ...list, query: undefined, success: { status: 200, schema: z.object({ at: z.iso.datetime() }) } });
    const route = one(handle(dated, async () => ({ at: new Date(0) as unknown as string })));
    expect(await (await call(route, "GET", "/api/things")).json()).toEqual({ at: "1970-01-01T00:00:00.000Z" });
    const own = one(handle(list, async () => new Response("raw", { status: 202 })));
    expect((await call(own, "GET", "/api/things?limit=1")).status).toBe(202);
  });

  it("answers 204 with the handler's headers for an operation without a JSON body", async () => {
    const route = one(handle(remove, async ({ headers }) => void headers.set("Set-Cookie", "a=b")));
    const response = await call(route, "DELETE", `/api/things/${ID}`, { params: { id: ID } });
    expect(response.status).toBe(204);
    expect(response.headers.get("set-cookie")).toBe("a=b");
  });

  it("serves each operation at its catalogue path (404 for no path, 405 with Allow for no method), and refuses a handler bound to another operation or none", async () => {
    const route = apiDispatcher(
      { things: { image, thumbnail } },
      { things: { image: handle(image, async () => new Response("image")), thumbnail: handle(thumbnail, async () => new Response("thumbnail")) } },
    );
    expect(await (await call(route, "GET", `/api/things/${ID}/thumbnail`)).text()).toBe("thumbnail");
    expect(await (await call(route, "GET", `/api/things/${ID}/image/`)).text()).toBe("image");
    const none = await call(route, "GET", `/api/things/${ID}/other`);
    expect([none.status, (await none.json()).detail]).toEqual([404, `No API route matches GET /api/things/${ID}/other`]);
    const post = await call(route, "POST", `/api/things/${ID}/image`);
    expect([post.status, post.headers.get("allow"), (await post.json()).detail]).toEqual([405, "GET", "POST is not supported here; use GET"]);
    expect(() => apiDispatcher({ things: { list } }, { things: { list: handle(mine, async () => []) } })).toThrow(
      /things\.list \(GET \/api\/things\) is bound to GET \/api\/things\/mine/,
    );
    // @ts-expect-error: the compiler already asks for a handler of every operation; so does the start-up
    expect(() => apiDispatcher({ things: { list, mine } }, { things: { list: handle(list, async () => []) } })).toThrow(/things\.mine \(GET \/api\/things\/mine\) has no handler/);
  });
});

describe("API_RESPONSE_CHECKS", () => {
  const env = { SESSION_SECRET: "s", ENCRYPTION_KEY: randomBytes(32).toString("base64") };
  it("is off in production unless asked for, and on elsewhere", () => {
    expect(loadConfig({ ...env, NODE_ENV: "production" }).apiResponseChecks).toBe(false);
    expect(loadConfig({ ...env, NODE_ENV: "production", API_RESPONSE_CHECKS: "true" }).apiResponseChecks).toBe(true);
    expect(loadConfig({ ...env, NODE_ENV: "development" }).apiResponseChecks).toBe(true);
  });
});
