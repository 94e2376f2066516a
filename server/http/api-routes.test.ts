import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Operation } from "#app/schemas/operations/define";
import { operations } from "#app/schemas/operations/index";
import { apiRouteTable, matchApiRoute } from "./api-routes";

const handler = (name: string) => async () => new Response(name);

const op = (method: Operation["method"], path: string): Operation => ({ method, path, summary: path, tag: "Test", access: "public", success: { status: 200, schema: null } });

const table = apiRouteTable(
  [
    op("get", "/api/alerts/contacts/{channel}"),
    op("post", "/api/alerts/contacts/verify"),
    op("get", "/api/photos/{id}"),
    op("delete", "/api/photos/{id}"),
    op("get", "/api/photos/{id}/image"),
    op("get", "/api/scoreboard/live.json"),
  ].map((operation) => ({ operation, handler: `${operation.method} ${operation.path}` })),
);

const match = (path: string) => {
  const found = matchApiRoute(table, path);
  return found ? { path: found.route.path, params: found.params } : null;
};

describe("the /api route table", () => {
  // Scores: 1 a segment, +10 static, +3 param; ties keep the catalogue's order.
  it("holds one entry per catalogue path with its operations by method, ranked as React Router ranks routes", () => {
    expect(table.map((r) => r.path)).toEqual([
      "/api/alerts/contacts/verify",
      "/api/alerts/contacts/{channel}",
      "/api/photos/{id}/image",
      "/api/scoreboard/live.json",
      "/api/photos/{id}",
    ]);
    expect([...table.at(-1)!.methods]).toEqual([
      ["GET", "get /api/photos/{id}"],
      ["DELETE", "delete /api/photos/{id}"],
    ]);
    expect(() => apiRouteTable([op("get", "/api/x"), op("get", "/api/x")].map((operation) => ({ operation, handler: 1 })))).toThrow(/GET \/api\/x is in the catalogue twice/);
  });

  it("prefers a static segment over a param, and finds nothing for a path no operation has", () => {
    expect(match("/api/alerts/contacts/verify")).toEqual({ path: "/api/alerts/contacts/verify", params: {} });
    expect(match("/api/alerts/contacts/email")).toEqual({ path: "/api/alerts/contacts/{channel}", params: { channel: "email" } });
    expect(match("/api/alerts/contacts/email/extra")).toBeNull();
    expect(match("/api")).toBeNull();
  });

  it("decodes params, ignores one trailing slash and letter case, and matches dots literally", () => {
    expect(match("/api/photos/a%20b/")).toEqual({ path: "/api/photos/{id}", params: { id: "a b" } });
    expect(match("/API/Photos/x/IMAGE")).toEqual({ path: "/api/photos/{id}/image", params: { id: "x" } });
    expect(match("/api/photos/%E0%A4%A")).toEqual({ path: "/api/photos/{id}", params: { id: "%E0%A4%A" } });
    expect(match("/api/scoreboard/live.json")?.path).toBe("/api/scoreboard/live.json");
    expect(match("/api/scoreboard/liveXjson")).toBeNull();
  });
});

describe("the API's route module", () => {
  it("binds a handler to every operation of the catalogue and to nothing else (apiDispatcher refuses to start otherwise)", async () => {
    process.env.LOG_LEVEL = "silent";
    process.env.SESSION_SECRET ??= "unit-test-session-secret";
    process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
    const module = await import("#app/routes/api");
    expect(module.loader).toBe(module.action);
  });

  it("is where app/routes.ts sends every path of the catalogue under /api, and no other path", async () => {
    const config = (await import("#app/routes")).default as RouteConfigEntry[];
    const apiRoutes = config.filter((entry) => entry.path?.startsWith("api/") || entry.path === "api");
    expect(new Set(apiRoutes.map((entry) => entry.file))).toEqual(new Set(["routes/api.ts"]));
    expect(apiRoutes.map((entry) => `/${entry.path!.replace(/:(\w+)/g, "{$1}")}`).sort()).toEqual([...new Set(operations.map((o) => o.path)), "/api/*"].sort());
  });
});

describe("against React Router's own matching", () => {
  it("picks the route React Router picks, for a path of every route in app/routes.ts and a few odd ones", async () => {
    const { matchRoutes } = await import("react-router");
    const config = (await import("#app/routes")).default as RouteConfigEntry[];
    // As the framework builds it: everything under the root route; a route's id defaults to its file sans extension.
    const record: Record<string, unknown> = { root: { id: "root", path: "", module: { default: () => null } } };
    const toObjects = (entries: RouteConfigEntry[], parentId: string): Array<Record<string, unknown>> =>
      entries.map((entry) => {
        const id = entry.id ?? entry.file.replace(/\.[jt]sx?$/, "");
        const page = entry.file.endsWith(".tsx");
        record[id] = { id, path: entry.path, index: entry.index, parentId, module: page ? { default: () => null } : { loader: handler(id), action: handler(id) } };
        return { id, path: entry.path, index: entry.index, children: entry.children ? toObjects(entry.children, id) : undefined };
      });
    const tree = [{ id: "root", path: "", children: toObjects(config, "root") }];
    const ours = apiRouteTable(operations.map((operation) => ({ operation, handler: null })));

    const concrete = Object.values(record)
      .map((r) => (r as { id: string }).id)
      .filter((id) => id.startsWith("routes/api/") || id.startsWith("api/"))
      .map((id) => `/${(record[id] as { path: string }).path.replace(/:[\w]+/g, "b5a1c2d3-0000-4000-8000-000000000001").replace("*", "no/such/thing")}`);
    const odd = [
      "/api/alerts/contacts/verify",
      "/api/alerts/contacts/sms",
      "/api/photos",
      "/api/photos/",
      "/api/photos/x/image/more",
      "/api",
      "/API/Auth/Me",
      "/api/scoreboard/live.json",
    ];
    expect(concrete.length).toBeGreaterThan(50);
    for (const path of [...concrete, ...odd]) {
      const theirs = matchRoutes(tree, path)?.at(-1)?.route.id;
      // The generated routes' ids are the catalogue paths (app/routes.ts); a path with no operation is the splat's.
      expect(matchApiRoute(ours, path)?.route.path.slice(1) ?? "api/not-found", path).toBe(theirs);
    }
  });
});

interface RouteConfigEntry {
  id?: string;
  path?: string;
  index?: boolean;
  file: string;
  children?: RouteConfigEntry[];
}
