// Marketing benchmarks: Lighthouse (mobile, simulated throttling) on the production build of /, /pricing and
// /downloads through Debian's Chromium, the JavaScript the home page loads, and SSR throughput of / against
// serving the same bytes as a static file.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http, { createServer } from "node:http";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import express from "express";
import lighthouse from "lighthouse";
import { ensureBuild } from "../bin/ensure-build.js";
import { freePort, startApp, startTestPostgres, tempDir, type TestApp } from "../tests/support/stack";
import { load, machine, ms, table, verdict } from "./lib";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "../tests/support/chromium";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
/** Lighthouse runs per page; the median run (by performance score) is reported. */
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PAGES = ["/", "/pricing", "/downloads"];
const TARGETS = { score: 95, seo: 100, cls: 0.05, homeJsGzipKb: 100 };

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

/** SSR of / through the whole app against the same bytes from a static file server and from memory. */
export async function throughput(app: TestApp): Promise<string> {
  const html = Buffer.from(await (await fetch(`${app.url}/`)).arrayBuffer());
  const dir = mkdtempSync(path.join(os.tmpdir(), "framewise-static-"));
  writeFileSync(path.join(dir, "index.html"), html);

  const staticApp = express();
  staticApp.use(express.static(dir));
  const staticPort = await freePort();
  const staticServer = staticApp.listen(staticPort, "127.0.0.1");
  const bare = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": html.length });
    res.end(html);
  });
  const barePort = await freePort();
  await new Promise<void>((resolve) => bare.listen(barePort, "127.0.0.1", resolve));

  try {
    // Warm up, then measure one after the other in the same run.
    await load({ url: `${app.url}/`, connections: 10, seconds: 2 });
    const ssr = await load({ url: `${app.url}/`, connections: CONNECTIONS, seconds: SECONDS });
    const file = await load({ url: `http://127.0.0.1:${staticPort}/index.html`, connections: CONNECTIONS, seconds: SECONDS });
    const memory = await load({ url: `http://127.0.0.1:${barePort}/`, connections: CONNECTIONS, seconds: SECONDS });
    const row = (name: string, result: typeof ssr) => [name, result.requestsPerSecond.toFixed(0), ms(result.p50), ms(result.p99), `${result.errors} / ${result.non2xx}`];
    return [
      `### GET / (${kb(html.length)} of HTML), ${CONNECTIONS} connections, ${SECONDS} s each`,
      "",
      table(
        ["server", "requests/s", "p50", "p99", "errors / non-2xx"],
        [
          row("Framewise SSR (React Router, security headers, logging)", ssr),
          row("express.static, the same HTML saved as a file", file),
          row("bare node:http, the same bytes from memory", memory),
        ],
      ),
      "",
      `SSR / static file: **${(ssr.requestsPerSecond / file.requestsPerSecond).toFixed(2)}**; SSR / in-memory: **${(ssr.requestsPerSecond / memory.requestsPerSecond).toFixed(2)}**.`,
    ].join("\n");
  } finally {
    staticServer.close();
    bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function runMarketingBenchmarks(): Promise<string> {
  ensureBuild();
  const pg = await startTestPostgres();
  const app = await startApp({ DATABASE_URL: await pg.createDatabase(), DATA_DIR: tempDir("bench-marketing") });
  try {
    const audits = await lighthouseAll(app);
    const homeScripts = audits.find((page) => page.path === "/")!.scripts;
    const homeGzip = (await Promise.all(homeScripts.map((script) => gzippedSize(script.url)))).reduce((sum, size) => sum + size, 0);
    return ["## Marketing site", "", lighthouseSection(audits, homeGzip), "", await throughput(app)].join("\n");
  } finally {
    await app.stop();
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runMarketingBenchmarks());
}
