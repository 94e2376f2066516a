// A webhook receiver on loopback that checks every request with the standardwebhooks package, records
// what it accepted, and answers from a script (e.g. fail twice, then succeed).
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  timestamp: number;
  /** Date.now() when the request's body had arrived. */
  receivedAt: number;
  body: string;
  payload: { type: string; event: string; timestamp: string; data: Record<string, unknown> };
  verified: boolean;
  status: number;
}

export type Answer = { status: number; headers?: Record<string, string> };

export interface Receiver {
  url: string;
  /** Every request, in arrival order, with the status it was answered. */
  requests: Received[];
  /** Requests answered 2xx. */
  accepted(): Received[];
  /**
   * Decides each answer; by default 200. `attempt` counts requests with this webhook-id (1-based). A promise holds the
   * answer back until it settles; a request whose connection closed meanwhile (`closed`) is recorded with status 0.
   */
  respond: (request: { id: string; attempt: number; closed: Promise<void> }) => Answer | Promise<Answer>;
  secret: string | null;
  waitFor(predicate: (r: Receiver) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `host`: the loopback address to listen on (the browser tests' server may deliver only to 127.0.0.2). */
export async function startReceiver(host = "127.0.0.1"): Promise<Receiver> {
  const attempts = new Map<string, number>();
  const receiver: Receiver = {
    url: "",
    requests: [],
    accepted: () => receiver.requests.filter((r) => r.status >= 200 && r.status < 300),
    respond: () => ({ status: 200 }),
    secret: null,
    async waitFor(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver)) {
        if (Date.now() > deadline)
          throw new Error(`receiver condition not met in ${timeoutMs} ms; got ${JSON.stringify(receiver.requests.map((r) => [r.payload?.type, r.status]))}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const receivedAt = Date.now();
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"] ?? "");
      let verified = false;
      if (receiver.secret) {
        try {
          new Webhook(receiver.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const attempt = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, attempt);
      let gone = false;
      const closed = new Promise<void>((resolve) =>
        res.once("close", () => {
          gone = !res.writableFinished;
          resolve();
        }),
      );
      const answer = verified || !receiver.secret ? receiver.respond({ id, attempt, closed }) : { status: 401 };
      let payload: Received["payload"];
      try {
        payload = JSON.parse(body) as Received["payload"];
      } catch {
        payload = { type: "?", event: "?", timestamp: "", data: {} };
      }
      const finish = ({ status, headers }: Answer) => {
        gone ||= res.destroyed;
        receiver.requests.push({ id, timestamp: Number(req.headers["webhook-timestamp"]), receivedAt, body, payload, verified, status: gone ? 0 : status });
        if (!gone) res.writeHead(status, headers).end();
      };
      if (answer instanceof Promise) void answer.then(finish);
      else finish(answer);
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  receiver.url = `http://${host}:${(server.address() as AddressInfo).port}/hooks/framewise`;
  return receiver;
}

/** A fresh, empty database on the test PostgreSQL, for an app whose queue must not share jobs with others. */
export async function createOwnDatabase(serverUrl?: string): Promise<string> {
  // Vitest's PostgreSQL unless told (the browser tests pass theirs); imported here so Playwright, without vitest, can use the receiver.
  const adminUrl = serverUrl ?? (await import("vitest")).inject("postgresAdminUrl");
  const name = `fw_auto_${Math.random().toString(36).slice(2, 10)}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
