// Shared pieces of the load and fault suites (run by tsx, not by Vitest): a signed-in HTTP session per
// simulated user that records every call per route, latency percentiles, and samples of the server process.
import { readFileSync } from "node:fs";
import os from "node:os";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

export interface Call {
  route: string;
  status: number;
  ms: number;
  /** Network error or timeout (no HTTP answer at all). */
  error?: string;
}

/** Every call of a run, by route ("POST /api/photos/:id"), so a report can show each route's latency and statuses. */
export class Recorder {
  readonly calls: Call[] = [];

  add(call: Call) {
    this.calls.push(call);
  }

  byRoute(): Map<string, Call[]> {
    const map = new Map<string, Call[]>();
    for (const call of this.calls) map.set(call.route, [...(map.get(call.route) ?? []), call]);
    return new Map([...map].sort(([a], [b]) => a.localeCompare(b)));
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A signed-in user: its session cookie and the Origin header the CSRF check wants on mutations, as the browser sends. */
export class Session {
  cookie = "";

  constructor(
    readonly baseUrl: string,
    private readonly recorder?: Recorder,
  ) {}

  async request(method: string, path: string, body?: unknown, options: { timeoutMs?: number; route?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { origin: this.baseUrl };
    if (this.cookie) headers.cookie = this.cookie;
    let payload: string | undefined;
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = typeof body === "string" ? body : JSON.stringify(body);
    }
    const route = options.route ?? `${method} ${path.split("?")[0]!.replace(UUID, ":id")}`;
    const started = performance.now();
    try {
      const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload, redirect: "manual", signal: AbortSignal.timeout(options.timeoutMs ?? 60_000) });
      // Read the body inside the timing: a route's latency is until its last byte.
      const bytes = await response.arrayBuffer();
      this.recorder?.add({ route, status: response.status, ms: performance.now() - started });
      const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("fw_session="));
      if (setCookie) this.cookie = setCookie.split(";")[0]!;
      return new Response(response.status === 204 || response.status === 304 ? null : bytes, { status: response.status, headers: response.headers });
    } catch (error) {
      this.recorder?.add({
        route,
        status: 0,
        ms: performance.now() - started,
        error: (error as Error).name === "TimeoutError" ? "timeout" : String((error as Error).cause ?? error),
      });
      throw error;
    }
  }

  async json<T>(method: string, path: string, body?: unknown, expected = [200, 201]): Promise<T> {
    const response = await this.request(method, path, body);
    const text = await response.text();
    if (!expected.includes(response.status)) throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async signUp(username: string, password = "load-test-password"): Promise<{ id: string }> {
    return this.json<{ id: string }>("POST", "/api/auth/signup", { username, password });
  }
}

/** Resident set size of a process in MiB, from /proc (Linux). */
export function rssMiB(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

/** CPU time (user + system, in ms) of a process so far, from /proc. */
export function cpuMs(pid: number | "self"): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

export function machineLine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, Node ${process.version}`;
}

export function loadAverage(): string {
  const [one, five, fifteen] = os.loadavg();
  return `${one!.toFixed(2)}, ${five!.toFixed(2)}, ${fifteen!.toFixed(2)} (1/5/15 min) on ${os.cpus().length} cores`;
}

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export const fmtMs = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : "–");

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns true (or a value), every `everyMs`, failing after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | false | undefined | null>, timeoutMs = 60_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`Timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
}

/** Least-squares slope of y over x (per unit of x). */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den ? num / den : 0;
}
