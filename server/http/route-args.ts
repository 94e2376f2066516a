// What a resource route's loader or action receives, and what it may read of the request without the web Request:
// the direct dispatch (server/http/request-handler.ts) makes a GET's Request only when something reads it, since
// making it (its URL, a copy of every header, undici's Request with its own AbortController) was ~6 % of a small
// API request's CPU and most GET routes only need the session cookie (docs/decisions/0007-api-fast-path.md).
import type { AppLoadContext } from "react-router";

/** The request's method and headers, read straight from Node's request. */
export interface RequestHead {
  method: string;
  /** The request target's path (Express's `req.path`: no query string, not decoded). */
  path: string;
  /** A request header by its lower-case name, as the web Request's `headers.get` would answer; null when absent. */
  header(name: string): string | null;
}

/** React Router's args, or the direct dispatch's (with `head`, and a `request` made on first read). */
export interface RouteArgs {
  request: Request;
  params: Record<string, string | undefined>;
  context?: AppLoadContext;
  head?: RequestHead;
}

export const requestMethod = (args: RouteArgs): string => args.head?.method ?? args.request.method;

export const requestHeader = (args: RouteArgs, name: string): string | null => (args.head ? args.head.header(name) : args.request.headers.get(name));
