// Marketing benchmarks: Lighthouse (mobile, simulated throttling) on the production build of /, /pricing and
// /downloads through Debian's Chromium, the JavaScript the home page loads, and throughput of / prerendered and
// server-rendered against serving the same bytes as a static file.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ensureBuild } from "../bin/ensure-build.js";
import { freePort, ROOT, startApp, startTestPostgres, tempDir, type TestApp } from "../tests/support/stack";
import { load, machine, ms, processCpuMs, table, verdict, type LoadResult } from "./lib";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
/** Lighthouse runs per page; the median run (by performance score) is reported. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGES = ["/", "/pricing", "/downloads"];
const TARGETS = { score: 95, seo: 100, cls: 0.05, homeJsGzipKb: 100, prerenderedVsStatic: 0.9 };

interface PageAudit {
  path: string;
  scores: { performance: number; accessibility: number; bestPractices: number; seo: number };
  lcpMs: number;
  cls: number;
  tbtMs: number;
  scripts: Array<{ url: string; transferBytes: number; resourceBytes: number }>;
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const score = (value: number | null | undefined) => Math.round((value ?? 0) * 100);

async function audit(url: string, port: number): Promise<Omit<PageAudit, "path">> {
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${result.lhr.runtimeError.message}`);
  const requests = ((audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items ?? []).filter((request) => request.resourceType === "Script");
  return {
    scores: {
      performance: score(categories.performance?.score),
      accessibility: score(categories.accessibility?.score),
      bestPractices: score(categories["best-practices"]?.score),
      seo: score(categories.seo?.score),
    },
    lcpMs: audits["largest-contentful-paint"]?.numericValue ?? NaN,
    cls: audits["cumulative-layout-shift"]?.numericValue ?? NaN,
    tbtMs: audits["total-blocking-time"]?.numericValue ?? NaN,
    scripts: requests.map((request) => ({
      url: request.url,
      transferBytes: request.transferSize ?? 0,
      resourceBytes: request.resourceSize ?? 0,
    })),
  };
}

/** Lighthouse now and then loses the trace of a load (NO_NAVSTART) on a busy machine; such a run is repeated. */
async function auditWithRetry(url: string, port: number, attempts = 3): Promise<Omit<PageAudit, "path">> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await audit(url, port);
    } catch (error) {
      if (attempt >= attempts) throw error;
      console.error(`${(error as Error).message}; retrying`);
    }
  }
}

/** Audits each page RUNS times in one fresh Chromium and keeps the median run by performance score. */
async function lighthouseAll(app: TestApp): Promise<PageAudit[]> {
  const userDataDir = mkdtempSync(path.join(os.tmpdir(), "framewise-lighthouse-"));
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ["--headless", ...CHROMIUM_FLAGS], userDataDir });
  try {
    const results: PageAudit[] = [];
    for (const page of PAGES) {
      const runs: Array<Omit<PageAudit, "path">> = [];
      for (let run = 0; run < RUNS; run++) runs.push(await auditWithRetry(`${app.url}${page}`, chrome.port));
      runs.sort((a, b) => a.scores.performance - b.scores.performance);
      results.push({ path: page, ...runs[Math.floor(runs.length / 2)]! });
    }
    return results;
  } finally {
    await chrome.kill();
    rmSync(userDataDir, { recursive: true, force: true });
  }
}

/** The gzip size of each script's body as this server sends it (without the headers Lighthouse counts). */
function gzippedSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { "accept-encoding": "gzip" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const body = Buffer.concat(chunks);
        // Files under compression's 1 KB threshold come back as they are; count them as gzip would.
        resolve(response.headers["content-encoding"] === "gzip" ? body.length : gzipSync(body).length);
      });
    });
    request.on("error", reject);
  });
}

function lighthouseSection(audits: PageAudit[], homeGzipBytes: number): string {
  const rows = audits.map((page) => [
    `\`${page.path}\``,
    page.scores.performance,
    page.scores.accessibility,
    page.scores.bestPractices,
    page.scores.seo,
    ms(page.lcpMs),
    page.cls.toFixed(3),
    ms(page.tbtMs),
    kb(page.scripts.reduce((sum, script) => sum + script.transferBytes, 0)),
    kb(page.scripts.reduce((sum, script) => sum + script.resourceBytes, 0)),
  ]);
  const scoresMet = audits.every(
    (page) =>
      page.scores.performance >= TARGETS.score && page.scores.accessibility >= TARGETS.score && page.scores.bestPractices >= TARGETS.score && page.scores.seo >= TARGETS.seo,
  );
  const clsMet = audits.every((page) => page.cls < TARGETS.cls);
  const homeKb = homeGzipBytes / 1024;
  return [
    `### Lighthouse 12 (mobile, simulated throttling), production build, median of ${RUNS} run${RUNS === 1 ? "" : "s"} per page`,
    "",
    table(["page", "performance", "accessibility", "best practices", "SEO", "LCP", "CLS", "TBT", "JS transferred", "JS uncompressed"], rows),
    "",
    `- Scores: target every score ≥ ${TARGETS.score} and SEO ${TARGETS.seo}: ${verdict(scoresMet)}`,
    `- CLS: target < ${TARGETS.cls} on every page: ${verdict(clsMet)}`,
    `- JavaScript on \`/\`, gzipped as served: **${homeKb.toFixed(1)} KB** in ${audits[0]!.scripts.length} files (target ≤ ${TARGETS.homeJsGzipKb} KB: ${verdict(homeKb <= TARGETS.homeJsGzipKb)})`,
    '- "JS transferred" is what Chromium received over plain HTTP (gzip, response headers included); "JS uncompressed" is the decoded size.',
  ].join("\n");
}

/** A response's body as sent (still compressed), for serving the very same bytes from a file. */
function rawBody(url: string, headers: Record<string, string>): Promise<{ body: Buffer; encoding: string | undefined }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ body: Buffer.concat(chunks), encoding: response.headers["content-encoding"] }));
    });
    request.on("error", reject);
  });
}

/** A request with a flash cookie (one that does not verify, so no toast) takes the dynamic path: React Router renders it. */
const DYNAMIC = { cookie: "fw_flash=bench" };
const GZIP = { "accept-encoding": "gzip" };

/** express.static in its own process (as the app is), serving `dir`; `.gz` files go as gzip-encoded HTML. */
async function startStaticServer(dir: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const script = `
    const express = require(${JSON.stringify(path.join(ROOT, "node_modules/express"))});
    const app = express();
    app.use(express.static(${JSON.stringify(dir)}, { setHeaders: (res, file) => {
      if (!file.endsWith(".gz")) return;
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Content-Encoding", "gzip");
    } }));
    app.listen(${port}, "127.0.0.1", () => console.log("listening"));`;
  const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the static file server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child };
}

type Measured = LoadResult & { cpuUsPerRequest: number };

/**
 * `/` prerendered (server/http/prerendered-pages.ts) against express.static serving the same bytes from a file, as
 * they are and gzipped (the file is the app's own gzip answer, sent with Content-Encoding), and against React
 * Router rendering it per request. Each server runs in its own process; the two sides of each ratio alternate
 * in two rounds, so a busy machine's swings fall on both, and each side's CPU per request is read from /proc:
 * on a shared machine that is the steadier figure (requests/s follow whatever CPU share the scheduler gives).
 */
export async function throughput(app: TestApp): Promise<string> {
  const plain = await rawBody(`${app.url}/`, {});
  const gzipped = await rawBody(`${app.url}/`, GZIP);
  if (plain.encoding || gzipped.encoding !== "gzip") throw new Error("the app did not answer / as expected (identity, then gzip)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "framewise-static-"));
  writeFileSync(path.join(dir, "index.html"), plain.body);
  writeFileSync(path.join(dir, "index.html.gz"), gzipped.body);
  const files = await startStaticServer(dir);
  const bare = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": plain.body.length });
    res.end(plain.body);
  });
  const barePort = await freePort();
  await new Promise<void>((resolve) => bare.listen(barePort, "127.0.0.1", resolve));

  const measure = async (pid: number, url: string, headers: Record<string, string> | undefined, seconds: number): Promise<Measured> => {
    const before = processCpuMs(pid);
    const result = await load({ url, headers, connections: CONNECTIONS, seconds });
    return { ...result, cpuUsPerRequest: ((processCpuMs(pid) - before) * 1000) / result.requests };
  };
  const appPid = app.process.pid!;
  const filesPid = files.process.pid!;
  /** Two rounds, a then b: requests/s and CPU per request averaged, latencies from the second round. */
  async function pair(a: () => Promise<Measured>, b: () => Promise<Measured>): Promise<[Measured, Measured]> {
    const [a1, b1] = [await a(), await b()];
    const [a2, b2] = [await a(), await b()];
    const merge = (one: Measured, two: Measured): Measured => ({
      ...two,
      requestsPerSecond: (one.requestsPerSecond + two.requestsPerSecond) / 2,
      requests: one.requests + two.requests,
      cpuUsPerRequest: (one.cpuUsPerRequest + two.cpuUsPerRequest) / 2,
      errors: one.errors + two.errors,
      non2xx: one.non2xx + two.non2xx,
    });
    return [merge(a1, a2), merge(b1, b2)];
  }

  try {
    // Warm up both paths, then measure.
    await load({ url: `${app.url}/`, connections: 10, seconds: 2 });
    await load({ url: `${app.url}/`, headers: DYNAMIC, connections: 10, seconds: 2 });
    const half = SECONDS / 2;
    const [fast, file] = await pair(
      () => measure(appPid, `${app.url}/`, undefined, half),
      () => measure(filesPid, `${files.url}/index.html`, undefined, half),
    );
    const [fastGzip, fileGzip] = await pair(
      () => measure(appPid, `${app.url}/`, GZIP, half),
      () => measure(filesPid, `${files.url}/index.html.gz`, undefined, half),
    );
    const ssr = await measure(appPid, `${app.url}/`, DYNAMIC, SECONDS);
    const memory = await load({ url: `http://127.0.0.1:${barePort}/`, connections: CONNECTIONS, seconds: SECONDS });
    const cpu = (result: LoadResult) => ("cpuUsPerRequest" in result ? `${(result as Measured).cpuUsPerRequest.toFixed(0)} µs` : "—");
    const row = (name: string, result: LoadResult) => [
      name,
      result.requestsPerSecond.toFixed(0),
      ms(result.p50),
      ms(result.p99),
      cpu(result),
      `${result.errors} / ${result.non2xx}`,
    ];
    const ratio = (a: LoadResult, b: LoadResult) => a.requestsPerSecond / b.requestsPerSecond;
    const cpuRatio = (a: Measured, b: Measured) => b.cpuUsPerRequest / a.cpuUsPerRequest;
    const met = Math.min(ratio(fast, file), ratio(fastGzip, fileGzip)) >= TARGETS.prerenderedVsStatic;
    const [load1, load5] = os.loadavg();
    return [
      `### GET / (${kb(plain.body.length)} of HTML, ${kb(gzipped.body.length)} gzipped), ${CONNECTIONS} connections, ${SECONDS} s each (load average ${load1!.toFixed(1)} / ${load5!.toFixed(1)} on ${os.cpus().length} cores at the end)`,
      "",
      table(
        ["server", "requests/s", "p50", "p99", "server CPU per request", "errors / non-2xx"],
        [
          row("Framewise, prerendered (security headers, logging)", fast),
          row("express.static, the same HTML as a file", file),
          row("Framewise, prerendered, gzip", fastGzip),
          row("express.static, the same gzip bytes as a file", fileGzip),
          row("Framewise SSR per request (React Router: a request with a flash cookie)", ssr),
          row("bare node:http in the benchmark's process, the same bytes from memory", memory),
        ],
      ),
      "",
      `Prerendered / static file, requests/s: **${ratio(fast, file).toFixed(2)}** as is, **${ratio(fastGzip, fileGzip).toFixed(2)}** gzipped (target ≥ ${TARGETS.prerenderedVsStatic}: ${verdict(met)}); ` +
        `by CPU per request (static's / prerendered's): **${cpuRatio(fast, file).toFixed(2)}** and **${cpuRatio(fastGzip, fileGzip).toFixed(2)}**. ` +
        `SSR / static file: **${ratio(ssr, file).toFixed(2)}**.`,
    ].join("\n");
  } finally {
    files.process.kill();
    bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runMarketingBenchmarks(): Promise<string> {
  ensureBuild();
  const pg = await startTestPostgres();
  const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("bench-marketing") });
  try {
    let lighthouseReport = "Lighthouse skipped (LIGHTHOUSE_RUNS=0).";
    if (RUNS > 0) {
      const audits = await lighthouseAll(app);
      const homeScripts = audits.find((page) => page.path === "/")!.scripts;
      const homeGzip = (await Promise.all(homeScripts.map((script) => gzippedSize(script.url)))).reduce((sum, size) => sum + size, 0);
      lighthouseReport = lighthouseSection(audits, homeGzip);
    }
    return ["## Marketing site", "", lighthouseReport, "", await throughput(app)].join("\n");
  } finally {
    await app.stop();
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runMarketingBenchmarks());
}
