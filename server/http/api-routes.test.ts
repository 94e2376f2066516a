import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { apiRouteTable, matchApiRoute } from "./api-routes";

const handler = (name: string) => async () => new Response(name);

/** A build's route record as React Router's compiler writes it: ids, parents, paths relative to the parent. */
function buildOf(routes: Array<{ id: string; path?: string; parentId?: string; index?: boolean; page?: boolean }>): ServerBuild {
  const record: Record<string, unknown> = {};
  for (const r of routes) {
    record[r.id] = {
      id: r.id,
      path: r.path,
      parentId: r.parentId,
      index: r.index,
      module: r.page ? { default: () => null, loader: handler(r.id) } : { loader: handler(r.id), action: handler(`${r.id}:action`) },
    };
  }
  return { routes: record } as unknown as ServerBuild;
}

const build = buildOf([
  { id: "root", path: "", page: true },
  { id: "home", parentId: "root", index: true, page: true },
  { id: "studio", parentId: "root", path: "studio", page: true },
  { id: "api/not-found", parentId: "root", path: "api/*" },
  { id: "api/contact", parentId: "root", path: "api/alerts/contacts/:channel" },
  { id: "api/verify", parentId: "root", path: "api/alerts/contacts/verify" },
  { id: "api/photo", parentId: "root", path: "api/photos/:id" },
  { id: "api/photo-image", parentId: "root", path: "api/photos/:id/image" },
  { id: "api/live-json", parentId: "root", path: "api/scoreboard/live.json" },
  { id: "pages-splat", parentId: "root", path: "*", page: true },
]);

const match = (path: string) => {
  const found = matchApiRoute(build, path);
  return found ? { id: found.route.id, params: found.params } : null;
};

describe("the /api route table", () => {
  // Scores: 1 a segment, +10 static, +3 param, -2 for a splat; ties keep the order of the route list.
  it("holds only resource routes under api/, ranked as React Router ranks them", () => {
    expect(apiRouteTable(build).map((r) => r.id)).toEqual(["api/verify", "api/contact", "api/photo-image", "api/live-json", "api/photo", "api/not-found"]);
  });

  it("prefers a static segment over a param, and a param over the splat", () => {
    expect(match("/api/alerts/contacts/verify")).toEqual({ id: "api/verify", params: {} });
    expect(match("/api/alerts/contacts/email")).toEqual({ id: "api/contact", params: { channel: "email" } });
    expect(match("/api/alerts/contacts/email/extra")).toEqual({ id: "api/not-found", params: { "*": "alerts/contacts/email/extra" } });
    expect(match("/api")).toEqual({ id: "api/not-found", params: { "*": "" } });
  });

  it("decodes params, ignores one trailing slash and letter case, and matches dots literally", () => {
    expect(match("/api/photos/a%20b/")).toEqual({ id: "api/photo", params: { id: "a b" } });
    expect(match("/API/Photos/x/IMAGE")).toEqual({ id: "api/photo-image", params: { id: "x" } });
    expect(match("/api/photos/%E0%A4%A")).toEqual({ id: "api/photo", params: { id: "%E0%A4%A" } });
    expect(match("/api/scoreboard/live.json")?.id).toBe("api/live-json");
    expect(match("/api/scoreboard/liveXjson")?.id).toBe("api/not-found");
  });

  it("leaves pages and everything outside /api to React Router", () => {
    expect(match("/studio")).toBeNull();
    expect(match("/")).toBeNull();
    expect(match("/apis/photos/1")).toBeNull();
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
    const real = { routes: record } as unknown as ServerBuild;

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
      expect(matchApiRoute(real, path)?.route.id, path).toBe(theirs);
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
