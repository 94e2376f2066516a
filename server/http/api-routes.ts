// The JSON API's route table, made from the catalogue (app/schemas/operations): one entry per path, holding the
// handler of each of its operations by method. The one dispatcher (api.ts `apiDispatcher`) matches a request
// against it, so an operation is declared once, in the catalogue, and bound once, to its handler
// (docs/decisions/0013-one-declaration-per-operation.md). app/routes.ts lists the same paths for React Router,
// generated from the same catalogue, all pointing at the dispatcher's module.
//
// Matching ranks paths as React Router ranks its routes (static segments beat params, decisions/0001), so the
// direct dispatch and React Router (API_DIRECT_DISPATCH=false) pick the same operation; a loop over a few dozen
// precompiled patterns.
import type { Operation } from "#app/schemas/operations/define";

export interface ApiRoute<Handler> {
  /** The catalogue's path, parameters as {id}. */
  path: string;
  pattern: RegExp;
  /** Param names in the order of the pattern's groups. */
  params: string[];
  score: number;
  /** The path's operations by upper-case method, in catalogue order (the order of a 405's Allow). */
  methods: Map<string, Handler>;
}

export interface ApiMatch<Handler> {
  route: ApiRoute<Handler>;
  params: Record<string, string>;
}

/** One entry per catalogue path, best-ranked first; the same operation twice (method and path) is a start-up error. */
export function apiRouteTable<Handler>(entries: ReadonlyArray<{ operation: Operation; handler: Handler }>): ApiRoute<Handler>[] {
  const byPath = new Map<string, ApiRoute<Handler> & { order: number }>();
  for (const { operation, handler } of entries) {
    let route = byPath.get(operation.path);
    if (!route) byPath.set(operation.path, (route = { path: operation.path, ...compile(operation.path), methods: new Map(), order: byPath.size }));
    const method = operation.method.toUpperCase();
    if (route.methods.has(method)) throw new Error(`${method} ${operation.path} is in the catalogue twice`);
    route.methods.set(method, handler);
  }
  return [...byPath.values()].sort((a, b) => b.score - a.score || a.order - b.order);
}

/** The operations' entry for a path (one trailing slash and letter case aside), or null when no operation has it. */
export function matchApiRoute<Handler>(table: readonly ApiRoute<Handler>[], pathname: string): ApiMatch<Handler> | null {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  for (const route of table) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params: Record<string, string> = {};
    for (let i = 0; i < route.params.length; i++) {
      // A malformed %-escape in a segment stays as sent, as React Router leaves it.
      params[route.params[i]!] = safeDecode(found[i + 1] ?? "");
    }
    return { route, params };
  }
  return null;
}

/**
 * A catalogue path as a regular expression, scored as React Router ranks branches (computeScore: each segment
 * counts 1, plus 10 when static and 3 when a param), case-insensitive as React Router's routes are by default.
 */
function compile(path: string): { pattern: RegExp; params: string[]; score: number } {
  const segments = path.split("/").filter(Boolean);
  const params: string[] = [];
  let source = "";
  let score = segments.length;
  for (const segment of segments) {
    const param = /^\{(\w+)\}$/.exec(segment);
    if (param) {
      params.push(param[1]!);
      source += "/([^/]+)";
      score += 3;
    } else {
      source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      score += 10;
    }
  }
  return { pattern: new RegExp(`^${source}$`, "i"), params, score };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
