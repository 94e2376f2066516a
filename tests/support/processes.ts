// Helpers for tests of several app processes: requests on a new connection each (so node:cluster's round robin
// hands them to every worker in turn), the app's JSON log lines, which name the worker process that wrote them, and
// a camera's live view through one process.
import http from "node:http";
import WebSocket from "ws";
import type { TestUser } from "./client";
import type { TestApp } from "./stack";

export interface LogEntry {
  msg?: string;
  pid?: number;
  level?: number;
  req?: { method: string; url: string };
  res?: { statusCode: number };
  [field: string]: unknown;
}

/** Every JSON line the app logged that is still kept (startApp keeps a bounded tail). */
export function logEntries(app: TestApp): LogEntry[] {
  const entries: LogEntry[] = [];
  // Start-up lines are kept one each without their newline, later output as written (whole lines).
  for (const line of app.logs.join("\n").split("\n")) {
    try {
      entries.push(JSON.parse(line) as LogEntry);
    } catch {
      // a line cut by the kept tail's start, or not JSON
    }
  }
  return entries;
}

/** One request on its own TCP connection (no keep-alive agent); rejects when the connection fails. */
export function freshRequest(url: string, options: { method?: string; headers?: Record<string, string>; json?: unknown } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = options.json === undefined ? undefined : JSON.stringify(options.json);
    const request = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: { ...options.headers, ...(body ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

export interface LiveView {
  /** Resolves once the stream says "online". */
  online: Promise<void>;
  /** Init segments (a pull starting) and fragments (frames) received so far. */
  received: { inits: number; fragments: number };
  /** Resolves with the server's close code. */
  closed: Promise<number>;
  close(): void;
}

/** A live view of the camera through `app`, as the studio opens it (server/http/camera-live-socket.ts). */
export function watchCamera(app: TestApp, user: TestUser, cameraId: string): LiveView {
  const ws = new WebSocket(`${app.url.replace(/^http/, "ws")}/api/cameras/${cameraId}/live`, { headers: { cookie: user.client.cookieHeader, origin: app.url } });
  ws.on("error", () => {});
  const received = { inits: 0, fragments: 0 };
  const online = new Promise<void>((resolve) =>
    ws.on("message", (data: Buffer, isBinary) => {
      if (!isBinary) {
        if ((JSON.parse(data.toString()) as { status: string }).status === "online") resolve();
      } else if (data.subarray(4, 8).toString() === "ftyp") received.inits += 1;
      else received.fragments += 1;
    }),
  );
  const closed = new Promise<number>((resolve) => ws.once("close", (code) => resolve(code)));
  return { online, received, closed, close: () => ws.close() };
}
