// Shared pieces for benchmarks: HTTP load with autocannon, timing, and markdown tables.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import autocannon from "autocannon";
import { ROOT } from "../tests/support/stack";

export interface LoadResult {
  requestsPerSecond: number;
  /** Requests answered in the run. */
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export async function load(options: {
  url: string;
  connections: number;
  seconds: number;
  headers?: Record<string, string>;
  method?: "GET" | "POST";
  body?: string;
  /** Given, each 2xx answer's latency in ms, unrounded, is added to it (autocannon's percentiles are whole ms). */
  samples?: number[];
}): Promise<LoadResult> {
  const samples = options.samples;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const run = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        headers: options.headers,
        method: options.method ?? "GET",
        body: options.body,
      },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    if (samples) run.on("response", (_client: unknown, status: number, _bytes: number, latencyMs: number) => void (status >= 200 && status < 300 && samples.push(latencyMs)));
  });
  return {
    requestsPerSecond: result.requests.average,
    requests: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function machine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model.trim() ?? "unknown CPU"}), ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, Node ${process.version}`;
}

export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const line = (cells: Array<string | number>) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
export const verdict = (ok: boolean) => (ok ? "✅ met" : "❌ missed");

export interface Timing {
  /** Median of the timed calls: the typical cost. */
  median: number;
  /** Fastest timed call: the cost without interference from other processes on a busy machine. */
  best: number;
}

/**
 * Wall time of one call, in milliseconds: a few warm-up calls (JIT tiers, caches), then at least
 * `minRuns` timed calls and at least `minMs` of timing in total.
 */
export function timeCalls(fn: () => void, options: { warmup?: number; minRuns?: number; minMs?: number } = {}): Timing {
  const { warmup = 3, minRuns = 10, minMs = 1000 } = options;
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < minRuns || performance.now() - started < minMs) {
    const before = performance.now();
    fn();
    samples.push(performance.now() - before);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, best: samples[0]! };
}

/** One-minute load average over core count: above ~1 other work was competing for the CPU. */
export function machineLoad(): string {
  return `load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`;
}

/** CPU time (user + system, in ms) a process has used so far, from /proc (Linux); NaN where that is not available. */
export function processCpuMs(pid: number | "self"): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime and stime, in clock ticks of 1/100 s
  } catch {
    return NaN;
  }
}

/** A process's CPU so far and that of its children (e.g. the app's ffmpeg pulls), from /proc (Linux). */
export interface TreeCpu {
  /** The process itself: utime + stime, ms. */
  self: number;
  /** Children that have exited and been reaped: cutime + cstime, ms. */
  reaped: number;
  /** Live children by pid: utime + stime, ms. */
  children: Map<number, number>;
}

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return [stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")), ...stat.slice(stat.lastIndexOf(")") + 2).split(" ")];
  } catch {
    return undefined; // exited
  }
}

/** Snapshot of `pid`'s CPU and its direct children's (optionally only those whose command is `childCommand`). */
export function treeCpu(pid: number, childCommand?: string): TreeCpu {
  const own = statFields(pid);
  if (!own) throw new Error(`process ${pid} is gone`);
  // After the command: [1] state, [2] ppid ... [12] utime, [13] stime, [14] cutime, [15] cstime (proc(5), shifted by one).
  const ticks = (fields: string[], a: number, b: number) => (Number(fields[a]) + Number(fields[b])) * CLOCK_TICK_MS;
  const children = new Map<number, number>();
  const childPids: number[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      childPids.push(...readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // the thread ended
    }
  }
  for (const child of childPids) {
    const fields = statFields(child);
    if (fields && (!childCommand || fields[0] === childCommand)) children.set(child, ticks(fields, 12, 13));
  }
  return { self: ticks(own, 12, 13), reaped: ticks(own, 14, 15), children };
}

/** CPU (ms) spent between two snapshots by the process itself and by its children, exited ones included. */
export function treeCpuBetween(before: TreeCpu, after: TreeCpu): { self: number; children: number } {
  let children = after.reaped - before.reaped; // a child reaped in between: all of its time is here...
  for (const [pid, ms] of after.children) children += ms - (before.children.get(pid) ?? 0);
  for (const [pid, ms] of before.children) if (!after.children.has(pid)) children -= ms; // ...minus what it had already used
  return { self: after.self - before.self, children };
}

/** The pid of the PostgreSQL server behind a connection (its postmaster: treeCpu of it counts every backend too). */
export async function postmasterPid(sql: { unsafe: (query: string) => PromiseLike<readonly unknown[]> }): Promise<number> {
  const [row] = (await sql.unsafe("select current_setting('data_directory') as dir")) as { dir: string }[];
  return Number(readFileSync(`${row!.dir}/postmaster.pid`, "utf8").split("\n")[0]);
}

/** Resident memory of a process in bytes (VmRSS), from /proc; NaN when it is gone. */
export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** The fake Moondream in its own process (so its CPU is not the benchmark's), answering after `latencyMs`. */
export async function startFakeMoondreamProcess(latencyMs: number): Promise<{ url: string; process: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/fakes/moondream/cli.ts"), "--latency", String(latencyMs), "--fixed"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString().split("\n")[0]!) as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the fake Moondream exited with ${code}`)));
  });
  return { url, process: child };
}

/** Signs up in the browser and adds the fake webcam, waiting until it plays at `width` pixels wide. */
export async function signUpWithWebcam(page: Page, baseUrl: string, username: string, width: number): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill("bench-password");
  await page.getByLabel("Confirm password").fill("bench-password");
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.waitForURL(/\/studio$/);
  await page.getByRole("button", { name: "Add Camera" }).first().click();
  await page.getByRole("menuitem", { name: "Add Camera" }).click();
  await page.getByRole("button", { name: "Select Webcam" }).click();
  await page.getByRole("dialog", { name: "Select Webcam" }).getByRole("listitem").first().getByRole("button").click();
  await page.waitForFunction((w) => (document.querySelector('[data-testid="preview-video"]') as HTMLVideoElement | null)?.videoWidth === w, width);
}

/** p50 and p99 of `runs` sequential awaited runs of `run`, after `warmup` untimed ones (ms). */
export async function timeRuns(run: () => Promise<unknown>, runs: number, warmup = 5): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0;
  return { p50: at(50), p99: at(99) };
}
