// `npm run test:fuzz`: hostile requests for every operation in /api/openapi.json, generated with fast-check,
// against the production server on its own PostgreSQL (and the fake Moondream), signed in as a real user
// with a CSRF-valid Origin. Fails on any 5xx the operation does not document as an upstream failure, any
// 4xx that is not problem JSON, a request the server never answers, or the server dying or going unready.
//   FUZZ_RUNS     requests per operation (default 40)
//   FUZZ_SEED     fast-check seed, to replay a run (printed at the start)
//   FUZZ_SECONDS  stop generating after this long and report what ran (default 420)
import http from "node:http";
import fc from "fast-check";
import { startFakeMoondream } from "../fakes/moondream/server";
import { jpegDataUrl } from "../support/images";
import { startApp, startTestPostgres, tempDir } from "../support/stack";
import { TINY_CUBE, createOwnerData, type JsonClient } from "../security/owner-data";
import { bodyArb, formBodyArb, uploadBodyArb, pathParamArb, queryArb, type FuzzRequest, type JsonSchema, type Seeds } from "./arbitraries";

const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const DEADLINE = Date.now() + Number(process.env.FUZZ_SECONDS ?? 420) * 1000;
const REQUEST_TIMEOUT_MS = 60_000;

interface OperationDoc {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: { "application/json"?: { schema: JsonSchema }; "multipart/form-data"?: { schema: { properties?: Record<string, unknown> } } } };
  responses: Record<string, unknown>;
  security?: unknown[];
}
interface Op {
  method: string;
  path: string;
  doc: OperationDoc;
  /** A page or its form action rather than an /api operation: answers HTML, not problem JSON. */
  page?: boolean;
}

/** The pages and form actions beside the API: hostile queries and form posts must not break them either. */
const PAGE_OPS: Op[] = [
  ...["/", "/pricing", "/login", "/signup", "/studio", "/admin", "/no-such-page"].map((path) => ({ method: "GET", path, doc: { responses: {} }, page: true })),
  ...["/login", "/signup", "/logout", "/login.data", "/signup.data"].map((path) => ({ method: "POST", path, doc: { responses: {} }, page: true })),
];
interface Answer {
  status: number;
  contentType: string;
  body: string;
  location?: string;
}
interface Failure {
  op: string;
  kind: string;
  why: string;
  request: string;
  answer: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

/** One raw HTTP request (node:http, so malformed targets and bodies go out exactly as generated). */
function send(base: URL, request: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, "utf8");
    const headers: Record<string, string | number> = { ...request.headers };
    if (body) headers["content-length"] = body.byteLength;
    const req = http.request({ host: base.hostname, port: base.port, method: request.method, path: request.target, headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      const contentType = String(res.headers["content-type"] ?? "");
      if (contentType.startsWith("text/event-stream")) {
        // A live stream never ends on its own: its status and type are the answer.
        res.destroy();
        resolve({ status: res.statusCode ?? 0, contentType, body: "" });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size <= 64 * 1024) chunks.push(chunk);
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType, body: Buffer.concat(chunks).toString("utf8"), location: res.headers.location }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
    req.on("error", reject);
    req.end(body);
  });
}

/** A minimal cookie-keeping JSON client (tests/support/client needs Vitest). */
class FuzzClient implements JsonClient {
  cookie = "";
  constructor(readonly base: string) {}
  async request(method: string, path: string, json?: unknown): Promise<Response> {
    const headers: Record<string, string> = { origin: this.base, cookie: this.cookie };
    if (json !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(new URL(path, this.base), { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
    const session = response.headers.getSetCookie().find((c) => c.startsWith("fw_session="));
    if (session) this.cookie = session.split(";")[0]!;
    return response;
  }
  get(path: string) {
    return this.request("GET", path);
  }
  post(path: string, json?: unknown) {
    return this.request("POST", path, json);
  }
}

async function signUp(base: string, prefix: string): Promise<FuzzClient> {
  const client = new FuzzClient(base);
  const response = await client.post("/api/auth/signup", { username: `${prefix}_${Math.random().toString(36).slice(2, 10)}`, password: "fuzz-password" });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status}`);
  return client;
}

function requestArb(op: Op, seeds: Seeds, cookie: () => string, origin: string): fc.Arbitrary<FuzzRequest> {
  const pathNames = (op.doc.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  const queryNames = (op.doc.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
  const schema = op.doc.requestBody?.content["application/json"]?.schema;
  const upload = op.doc.requestBody?.content["multipart/form-data"]?.schema;
  const takesBody = op.method !== "GET";
  if (op.page) {
    return fc
      .record({
        query: queryArb(["redirectTo", "tab", "page"], seeds),
        body: takesBody ? formBodyArb() : fc.constant({ kind: "no-body", body: undefined, contentType: undefined }),
      })
      .map(({ query, body }) => {
        const headers: Record<string, string> = { origin, cookie: cookie(), accept: "text/html" };
        if (body.contentType) headers["content-type"] = body.contentType;
        return { kind: body.kind, method: op.method, target: op.path + query, headers, body: body.body };
      });
  }
  return fc
    .record({
      params: fc.tuple(...pathNames.map((name) => pathParamArb(seeds, name))),
      query: queryArb([...queryNames, "page", "limit", "cursor", "userId"], seeds),
      body: upload
        ? uploadBodyArb(Object.keys(upload.properties ?? {}))
        : takesBody
          ? bodyArb(schema, seeds)
          : fc.constant({ kind: "no-body", body: undefined, contentType: undefined }),
      accept: fc.constantFrom(undefined, "*/*", "text/event-stream", "application/problem+json", "text/html"),
    })
    .map(({ params, query, body, accept }) => {
      let path = op.path;
      pathNames.forEach((name, i) => (path = path.replace(`{${name}}`, params[i]!)));
      const headers: Record<string, string> = { origin, cookie: cookie() };
      if (body.contentType !== undefined && body.contentType !== "") headers["content-type"] = body.contentType.split("\u0000").join("");
      if (accept) headers.accept = accept;
      const kind =
        pathNames.length && !seeds.ids.includes(params[0]!) && !["email", "sms"].includes(params[0]!) ? `bad-id/${body.kind}` : query.length > 1 ? `query/${body.kind}` : body.kind;
      return { kind, method: op.method, target: path + query, headers, body: body.body };
    });
}

/** A Location a browser resolves to this site: a path, without the control characters or backslashes browsers drop or bend. */
function isSameSitePath(location: string): boolean {
  if (!location.startsWith("/") || location.startsWith("//")) return false;
  if ([...location].some((c) => c.charCodeAt(0) <= 0x20 || c === "\\")) return false;
  return new URL(location, "http://site.invalid").origin === "http://site.invalid";
}

function check(op: Op, request: FuzzRequest, answer: Answer): string | null {
  const location = answer.location;
  // A redirect may only go to a path of this site (an open redirect would hand a fresh session's user to another).
  if (location !== undefined && !isSameSitePath(location)) {
    return `redirected off-site to ${JSON.stringify(location)}`;
  }
  if (op.page) return answer.status >= 500 ? `answered ${answer.status}` : null;
  const documented = (status: number) => String(status) in op.doc.responses;
  if (answer.status >= 500) {
    // 502/503/504 are this API's answers for an unreachable or failing provider, camera or mail server.
    if (answer.status !== 500 && documented(answer.status)) return null;
    return `answered ${answer.status}`;
  }
  if (answer.status >= 400) {
    if (!answer.contentType.includes("application/problem+json")) return `answered ${answer.status} as ${answer.contentType || "no content type"}, not problem JSON`;
    try {
      const problem = JSON.parse(answer.body) as { status?: number; title?: string };
      if (problem.status !== answer.status || !problem.title) return `problem JSON without the status ${answer.status} or a title`;
    } catch {
      return `problem+json that does not parse`;
    }
  }
  void request;
  return null;
}

function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ""
      : Buffer.isBuffer(request.body)
        ? `<${request.body.byteLength} bytes>`
        : request.body.length > 300
          ? `${JSON.stringify(request.body.slice(0, 300))}… (${request.body.length} chars)`
          : JSON.stringify(request.body);
  const target = request.target.length > 200 ? `${request.target.slice(0, 200)}…` : request.target;
  return `${request.method} ${target} [${request.headers["content-type"] ?? "no content type"}] ${body}`;
}

async function buildSeeds(ids: string[]): Promise<Seeds> {
  const jpeg = await jpegDataUrl(32, 24);
  const escaped = (s: string) => JSON.stringify(s).slice(1, -1);
  const base64Junk = (bytes: number) => `data:image/jpeg;base64,${Buffer.alloc(bytes, 0xab).toString("base64")}`;
  return {
    ids,
    tinyJpegDataUrl: jpeg,
    validCube: TINY_CUBE,
    big: {
      json2mb: JSON.stringify({ name: "x".repeat(2 * 1024 * 1024 + 100) }),
      json17mb: JSON.stringify({ imageData: `data:image/jpeg;base64,${"A".repeat(17 * 1024 * 1024)}` }),
      dataUrl12mb: base64Junk(9 * 1024 * 1024),
      dataUrl16mb: base64Junk(12 * 1024 * 1024),
      cube9mb: escaped(`LUT_3D_SIZE 64\n${"0.5 0.5 0.5\n".repeat(750_000)}`),
    },
  };
}

async function main() {
  const started = Date.now();
  console.log(`fuzz: seed ${SEED}, ${RUNS} requests per operation (FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} replays this run)`);
  const pg = await startTestPostgres();
  const fake = await startFakeMoondream();
  const errorLines: string[] = [];
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  try {
    const databaseUrl = await pg.createDatabase("framewise_fuzz");
    app = await startApp({
      DATABASE_URL: databaseUrl,
      DATA_DIR: tempDir("fuzz"),
      MOONDREAM_ENDPOINT: fake.url,
      MOONDREAM_API_KEY: "fuzz-shared-key",
      MOONDREAM_REQUESTS_PER_SECOND: "0",
      MOONDREAM_MAX_RETRIES: "0",
      MOONDREAM_TIMEOUT_MS: "10000",
      // Cameras may only be on this loopback address and one port nothing listens on: every PTZ call fails fast
      // (refused by the policy) instead of waiting on a LAN or on the 4 s floor of an unreachable camera.
      PTZ_ALLOWED_NETWORKS: "127.0.0.1/32",
      PTZ_ALLOWED_PORTS: "2",
      // Generous: the fuzzer signs in with hostile bodies from one address.
      SIGNIN_MAX_FAILURES_PER_IP: "100000",
    });
    let partial = "";
    app.process.stdout!.on("data", (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop()!;
      for (const line of lines) if (/"level":(50|60)/.test(line)) errorLines.push(line.slice(0, 2000));
    });
    // React Router reports a failed render or action with console.error, not through pino.
    app.process.stderr!.on("data", (chunk: Buffer) => {
      for (const line of chunk.toString().split("\n")) if (/error/i.test(line) && !/^\s+at /.test(line)) errorLines.push(line.slice(0, 2000));
    });
    const base = new URL(app.url);
    const adminClient = await signUp(app.url, "fuzzadmin"); // the first account, made from this machine, is the admin
    const user = await signUp(app.url, "fuzzer");
    const frame = await jpegDataUrl(64, 48);
    const data = await createOwnerData(user, async (sessionId) => {
      const response = await user.post("/api/people-count/count", { imageData: frame, sessionId });
      if (response.status !== 200) throw new Error(`count failed: ${response.status} ${await response.text()}`);
      const snapshots = (await (await user.get(`/api/people-count/sessions/${sessionId}/snapshots`)).json()) as Array<{ id: string }>;
      return snapshots[0]!.id;
    });
    const seeds = await buildSeeds(Object.values(data.ids));

    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as { paths: Record<string, Record<string, OperationDoc>> };
    const ops: Op[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, opDoc]) => ({ method: method.toUpperCase(), path, doc: opDoc })),
    );
    ops.push(...PAGE_OPS);
    // Deletions last, so the rows the others aim at exist while they run.
    ops.sort((a, b) => Number(a.method === "DELETE") - Number(b.method === "DELETE"));

    const perOp = new Map<string, Map<number, number>>();
    const total = new Map<number, number>();
    const failures: Failure[] = [];
    let sent = 0;
    let stoppedEarly = false;

    for (const op of ops) {
      if (Date.now() > DEADLINE) {
        stoppedEarly = true;
        break;
      }
      const key = `${op.method} ${op.path}`;
      const histogram = new Map<number, number>();
      perOp.set(key, histogram);
      // Operations on the caller's own account get a fresh account per request; admin operations the admin.
      const selfOnly = key === "DELETE /api/auth/me" || key === "POST /api/auth/logout" || key === "POST /logout";
      let client = op.path.startsWith("/api/admin/") || op.path === "/admin" ? adminClient : user;
      const requests = fc.sample(
        requestArb(op, seeds, () => client.cookie, app.url),
        { numRuns: RUNS, seed: SEED + ops.indexOf(op) },
      );
      for (const request of requests) {
        if (Date.now() > DEADLINE) {
          stoppedEarly = true;
          break;
        }
        if (selfOnly) {
          client = await signUp(app.url, "self");
          request.headers.cookie = client.cookie;
        }
        let answer: Answer;
        try {
          answer = await send(base, request);
        } catch (error) {
          failures.push({ op: key, kind: request.kind, why: `no answer: ${(error as Error).message}`, request: describeRequest(request), answer: "" });
          histogram.set(0, (histogram.get(0) ?? 0) + 1);
          continue;
        } finally {
          sent++;
        }
        histogram.set(answer.status, (histogram.get(answer.status) ?? 0) + 1);
        total.set(answer.status, (total.get(answer.status) ?? 0) + 1);
        const why = check(op, request, answer);
        if (why) failures.push({ op: key, kind: request.kind, why, request: describeRequest(request), answer: answer.body.slice(0, 300) });
      }
      if (app.process.exitCode !== null) throw new Error(`the server exited (${app.process.exitCode}) during ${key}`);
      const ready = await fetch(`${app.url}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (ready !== 200) failures.push({ op: key, kind: "readiness", why: `/readyz answered ${ready} afterwards`, request: "GET /readyz", answer: "" });
    }

    const seconds = Math.round((Date.now() - started) / 1000);
    const lines: string[] = [];
    lines.push(
      `# Fuzz report`,
      "",
      `${sent} requests to ${perOp.size} of ${ops.length} operations in ${seconds} s (seed ${SEED}, ${RUNS} per operation${stoppedEarly ? ", stopped early at FUZZ_SECONDS" : ""}).`,
      "",
    );
    lines.push(
      `Status codes: ${[...total]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(", ")}`,
      "",
    );
    lines.push(`Failures: ${failures.length}; server error log lines: ${errorLines.length}; server alive: ${app.process.exitCode === null}`, "");
    lines.push("| operation | requests | status codes |", "| --- | ---: | --- |");
    for (const [key, histogram] of perOp) {
      const count = [...histogram.values()].reduce((a, b) => a + b, 0);
      lines.push(
        `| ${key} | ${count} | ${[...histogram]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")} |`,
      );
    }
    if (failures.length) {
      lines.push("", "## Failures (first 3 per operation)", "");
      const shown = new Map<string, number>();
      for (const f of failures) {
        const n = shown.get(f.op) ?? 0;
        if (n >= 3) continue;
        shown.set(f.op, n + 1);
        lines.push(`- **${f.op}** (${f.kind}): ${f.why}`, `  - request: \`${f.request}\``, `  - answer: \`${f.answer.replace(/`/g, "'")}\``);
      }
    }
    if (errorLines.length) lines.push("", "## Server error log (first 5)", "", ...errorLines.slice(0, 5).map((l) => `    ${l.slice(0, 600)}`));
    console.log(lines.join("\n"));
    process.exitCode = failures.length || errorLines.length ? 1 : 0;
  } finally {
    await app?.stop();
    await fake.close();
    await pg.stop();
    agent.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
