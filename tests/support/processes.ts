// Helpers for tests of several app processes: requests on a new connection each (so node:cluster's round robin
// hands them to every worker in turn), and the app's JSON log lines, which name the worker process that wrote them.
import http from "node:http";
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
