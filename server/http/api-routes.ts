// The JSON API's route table, straight from the React Router build, so /api requests reach their resource
// route without going through React Router's request pipeline.
//
// For a resource route React Router matches the URL twice (flattening and ranking all ~90 routes each time),
// builds a query-routing context and runs its data strategy around the one loader or action it then calls;
// on an AI call that was about a tenth of the app's CPU (bench/vision.ts), as much as reading the frame. The
// routes under /api are all resource routes (no component, no parent loaders), so calling the matched module's
// loader or action ourselves is exactly what React Router would do. The table is built once per build, with
// React Router's own ranking (static segments beat dynamic ones, a splat comes last), and matching is a loop
// over a few dozen precompiled patterns. Route modules are unchanged and still work through React Router.
import type { AppLoadContext, ServerBuild } from "react-router";

export type RouteHandler = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => Promise<Response> | Response;

interface ApiRoute {
  id: string;
  pattern: RegExp;
  /** Param names in the order of the pattern's groups; "*" for a splat. */
  params: string[];
  score: number;
  loader?: RouteHandler;
  action?: RouteHandler;
}

export interface ApiMatch {
  route: ApiRoute;
  params: Record<string, string>;
}

const tables = new WeakMap<ServerBuild, ApiRoute[]>();

/** The resource route for a path under /api, or null (not under /api, or a page): React Router handles it then. */
export function matchApiRoute(build: ServerBuild, pathname: string): ApiMatch | null {
  if (!/^\/api(\/|$)/i.test(pathname)) return null;
  let table = tables.get(build);
  if (!table) tables.set(build, (table = apiRouteTable(build)));
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  for (const route of table) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.params.length; i++) {
      const raw = found[i + 1] ?? "";
      // A malformed %-escape in a segment stays as sent, as React Router leaves it.
      params[route.params[i]!] = safeDecode(raw);
    }
    return { route, params };
  }
  return null;
}

/** Every resource route whose full path starts with api/, best-ranked first. */
export function apiRouteTable(build: ServerBuild): ApiRoute[] {
  const routes = build.routes;
  const fullPath = (id: string): string => {
    const route = routes[id]!;
    const own = route.path ?? "";
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return [parent, own].filter(Boolean).join("/");
  };
  const table: Array<ApiRoute & { order: number }> = [];
  let order = 0;
  for (const route of Object.values(routes)) {
    if (!route || route.index) continue;
    const path = fullPath(route.id).replace(/^\/+/, "");
    if (!(path === "api" || path.startsWith("api/"))) continue;
    const module = route.module as { default?: unknown; loader?: RouteHandler; action?: RouteHandler };
    // A route with a component renders a page: React Router's job, not ours.
    if (module.default) continue;
    const compiled = compile(path, route.caseSensitive ?? false);
    if (!compiled) continue;
    table.push({ id: route.id, ...compiled, ...(module.loader ? { loader: module.loader } : {}), ...(module.action ? { action: module.action } : {}), order: order++ });
  }
  table.sort((a, b) => b.score - a.score || a.order - b.order);
  return table;
}

/**
 * A route path as a regular expression, scored as React Router ranks branches (computeScore: each segment counts
 * 1, plus 10 when static and 3 when a param; a splat takes 2 off). Optional segments ("?") are not used by our
 * API; such a route is left to React Router.
 */
function compile(path: string, caseSensitive: boolean): { pattern: RegExp; params: string[]; score: number } | null {
  const segments = path.split("/").filter(Boolean);
  const params: string[] = [];
  let source = "";
  let score = segments.length;
  for (const segment of segments) {
    if (segment.endsWith("?")) return null;
    if (segment === "*") {
      params.push("*");
      source += "(?:/(.*))?";
      score -= 2;
    } else if (segment.startsWith(":")) {
      params.push(segment.slice(1));
      source += "/([^/]+)";
      score += 3;
    } else {
      source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      score += 10;
    }
  }
  return { pattern: new RegExp(`^${source}$`, caseSensitive ? "" : "i"), params, score };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
