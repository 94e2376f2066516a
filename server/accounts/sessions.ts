// Server-side sessions: a random token in an HttpOnly cookie, its SHA-256 in PostgreSQL (revocable).
import { createHash, randomBytes } from "node:crypto";
import { createCookie, redirect } from "react-router";
import type { CurrentUser } from "#app/schemas/auth";
import { db } from "#db/index";
import { config } from "../config";
import { secureCookies } from "../net/secure-cookies";
import { ProblemError } from "../errors";
import * as queries from "./queries";
import { toCurrentUser } from "./service";
import { sessionCache, type CachedSession } from "./session-notices";
import type { Session } from "./session-types";

const TOUCH_INTERVAL_MS = 60 * 60 * 1000;

let cookie: ReturnType<typeof createCookie> | undefined;
// Unsigned on purpose: the value is 256 random bits checked against the session store on every request, so a
// signature would add no protection, only an HMAC per request.
function sessionCookie() {
  cookie ??= createCookie("fw_session", { httpOnly: true, sameSite: "lax", path: "/", maxAge: config().sessionMaxAgeSeconds });
  return cookie;
}

const tokenId = (token: string) => createHash("sha256").update(token).digest("hex");

/** Cookie headers remembered by sessionIdOf, at most this many (started afresh when full), each at most MAX_HEADER long. */
const MAX_HEADERS = 1024;
const MAX_HEADER = 4096;
let idsByHeader = new Map<string, string | null>();

/**
 * The id (the token's SHA-256) of the session a request's cookie names, or null. Remembered per Cookie header: a
 * client sends the same header request after request, and parsing it (React Router's cookie: base64 JSON) and
 * hashing the token were ~3 % of a small API request's CPU. The header alone decides the answer, so remembering it
 * changes no answer; whether that session exists is the session cache's and the database's question, every time.
 */
async function sessionIdOf(header: string | null): Promise<string | null> {
  if (!header) return null;
  const known = idsByHeader.get(header);
  if (known !== undefined) return known;
  const value: unknown = await sessionCookie().parse(header);
  const id = typeof value === "string" && value.length > 0 ? tokenId(value) : null;
  if (header.length <= MAX_HEADER) {
    if (idsByHeader.size >= MAX_HEADERS) idsByHeader = new Map();
    idsByHeader.set(header, id);
  }
  return id;
}

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** Starts a session and answers with the Set-Cookie header value. */
export async function createSession(request: Request, userId: string, meta: RequestMeta): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  await queries.insertSession(db(), {
    id: tokenId(token),
    userId,
    expiresAt: new Date(Date.now() + config().sessionMaxAgeSeconds * 1000),
    userAgent: meta.userAgent?.slice(0, 300) ?? null,
    ip: meta.ip,
  });
  return sessionCookie().serialize(token, { secure: secureCookies(request) });
}

/** Ends the session (deletes its row) and answers with a Set-Cookie that clears the cookie. */
export async function destroySession(request: Request): Promise<string> {
  const id = await sessionIdOf(request.headers.get("Cookie"));
  if (id) await queries.deleteSession(db(), id);
  return sessionCookie().serialize("", { maxAge: 0, expires: new Date(0), secure: secureCookies(request) });
}

export type { Session } from "./session-types";

/**
 * The request's session: from the process's session cache (server/accounts/session-notices.ts keeps it true across
 * processes) or one query. The returned objects are shared by concurrent requests: read them, never change them.
 */
export async function findSession(request: Request): Promise<Session | null> {
  return findSessionByCookie(request.headers.get("Cookie"));
}

/** findSession for a request's Cookie header (the direct API dispatch reads it without making a web Request). */
export async function findSessionByCookie(cookieHeader: string | null): Promise<Session | null> {
  const id = await sessionIdOf(cookieHeader);
  if (!id) return null;
  const cache = sessionCache();
  const cached = cache.get(id);
  if (cached) {
    // Sliding expiry from the cache too: still at most one write an hour per session and process.
    if (Date.now() - cached.lastSeenAt > TOUCH_INTERVAL_MS) await touch(id, cached);
    return cached.session;
  }
  const generation = cache.generation;
  const row = await queries.findUserBySession(db(), id);
  if (!row) return null;
  const entry: CachedSession = {
    userId: row.id,
    expiresAt: row.expires_at.getTime(),
    lastSeenAt: row.last_seen_at.getTime(),
    session: Object.freeze({ user: Object.freeze(toCurrentUser(row)), keyCiphertext: row.moondream_key_ciphertext }),
  };
  if (Date.now() - entry.lastSeenAt > TOUCH_INTERVAL_MS) await touch(id, entry);
  cache.set(id, entry, generation);
  return entry.session;
}

async function touch(id: string, entry: CachedSession): Promise<void> {
  // Marked first, so requests arriving meanwhile do not write too.
  entry.lastSeenAt = Date.now();
  entry.expiresAt = entry.lastSeenAt + config().sessionMaxAgeSeconds * 1000;
  await queries.touchSession(db(), id, new Date(entry.expiresAt));
}

export async function getUser(request: Request): Promise<CurrentUser | null> {
  return (await findSession(request))?.user ?? null;
}

/** For pages: anonymous visitors go to /login and come back afterwards. */
export async function requireUserPage(request: Request): Promise<CurrentUser> {
  const user = await getUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  return user;
}

export async function requireAdminPage(request: Request): Promise<CurrentUser> {
  const user = await requireUserPage(request);
  if (user.role !== "admin") throw new Response("Only administrators can open this page.", { status: 403, statusText: "Forbidden" });
  return user;
}

/** For the JSON API: 401 problem when anonymous. */
export async function requireSession(request: Request): Promise<Session> {
  return requireSessionByCookie(request.headers.get("Cookie"));
}

export async function requireSessionByCookie(cookieHeader: string | null): Promise<Session> {
  const session = await findSessionByCookie(cookieHeader);
  if (!session) throw new ProblemError(401, "Sign in to continue");
  return session;
}

export async function requireUser(request: Request): Promise<CurrentUser> {
  return (await requireSession(request)).user;
}

export async function requireAdmin(request: Request): Promise<CurrentUser> {
  return onlyAdmin(await requireUser(request));
}

/** 403 problem unless the user is an administrator. */
export function onlyAdmin(user: CurrentUser): CurrentUser {
  if (user.role !== "admin") throw new ProblemError(403, "Only administrators can do this");
  return user;
}

/** Only same-site relative paths, so a crafted link can't bounce a fresh session to another site. */
export function safeRedirectTarget(value: unknown, fallback = "/studio"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  // Browsers drop tabs and newlines inside a URL and read "\\" as "/", so "/<tab>/evil.example" is
  // "//evil.example", another site; a newline cannot even go in a Location header (500). Control
  // characters and backslashes never belong in our paths: refuse them, then check where it really points.
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return fallback;
  }
  const base = "http://framewise.invalid";
  const url = new URL(value, base);
  // Re-serialised, so non-ASCII arrives percent-encoded (a header value must be bytes, or it is a 500).
  return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : fallback;
}
