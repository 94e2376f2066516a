// The one place that reads process.env: parsed once with zod, secrets created on first start.
import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { hostNameOf } from "./net/host-name";
import { parseNetworks } from "./net/address-policy";
import { parseFrameAncestors } from "./net/frame-ancestors";
import { CAMERA_PORTS, parsePorts } from "./net/ports";

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  WEB_CONCURRENCY: z
    .string()
    .trim()
    .regex(/^(auto|[1-9]\d*)$/, 'must be a number of worker processes (1 or more) or "auto"')
    .default("1"),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("./data"),
  BLOB_DIR: optionalString,
  BLOB_STORE: z.enum(["fs", "s3"], { message: 'BLOB_STORE must be "fs" or "s3"' }).default("fs"),
  S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, message: "S3_ENDPOINT must be an http(s) URL" }).optional()),
  S3_REGION: optionalString,
  S3_BUCKET: optionalString,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  EMBEDDED_POSTGRES_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  SESSION_SECRET: optionalString,
  ENCRYPTION_KEY: optionalString,
  API_DIRECT_DISPATCH: z.enum(["true", "false"]).default("true"),
  API_FAST_PATH: z.enum(["true", "false"]).default("true"),
  API_RESPONSE_CHECKS: z.enum(["true", "false"]).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: optionalString,
  PUBLIC_URL: optionalString,
  ALLOWED_ORIGINS: optionalString,
  SECURE_COOKIES: z.enum(["auto", "true", "false"]).default("auto"),
  ALLOWED_HOSTS: optionalString,
  SIGNIN_MAX_FAILURES_PER_USERNAME_AND_IP: z.coerce.number().int().min(1).default(10),
  SIGNIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(100),
  SIGNIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().min(1).default(100),
  SIGNIN_FAILURE_WINDOW_MINUTES: z.coerce.number().int().min(1).default(15),
  SIGNUP_MAX_PER_IP_PER_HOUR: z.coerce.number().int().min(0).default(5),
  BLOB_ORPHAN_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .default(3600),
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).default(30),
  SESSION_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  MOONDREAM_ENDPOINT: z.string().trim().url("MOONDREAM_ENDPOINT must be a URL").default("https://api.moondream.ai/v1"),
  MOONDREAM_API_KEY: optionalString,
  MOONDREAM_KEYLESS: z.enum(["true", "false"]).default("false"),
  MOONDREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  MOONDREAM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  MOONDREAM_REQUESTS_PER_SECOND: z.coerce.number().min(0).max(10_000).default(2),
  SHARED_KEY_DAILY_CALLS: z.coerce.number().int().min(0).max(100_000_000).default(2000),
  PTZ_ALLOWED_NETWORKS: z.string().default("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7"),
  PTZ_ALLOWED_PORTS: z.string().default(CAMERA_PORTS),
  OVERLAY_FRAME_ANCESTORS: z.string().default("*"),
  PTZ_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  FFMPEG_PATH: optionalString,
  CAMERA_STREAM_IDLE_MS: z.coerce.number().int().min(0).max(3_600_000).default(10_000),
  CAMERA_RELAY_HOST: z
    .string()
    .trim()
    .refine((host) => isIP(host) !== 0 && !["0.0.0.0", "::"].includes(host), "CAMERA_RELAY_HOST must be this machine's IP address that the other app machines reach (not 0.0.0.0)")
    .default("127.0.0.1"),
  CAMERA_RELAY_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  LOCAL_VISION_PIPELINES: z.enum(["true", "false"]).default("true"),
  LOCAL_VISION_DETECTOR_THREADS: optionalString.pipe(z.coerce.number<string>().int("must be a whole number of threads").min(1).max(64).optional()),
  // The system's own search path, read here like every variable: where `ffmpeg` is looked for when FFMPEG_PATH is unset.
  PATH: optionalString,
  WEBHOOK_ALLOWED_CIDRS: optionalString,
  WEBHOOK_BLOCKED_CIDRS: optionalString,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(5_000),
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().min(1).max(100_000).default(20),
  WEBHOOK_DISABLE_AFTER_MINUTES: z.coerce.number().min(0).max(100_000).default(1440),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(200).default(16),
  METRICS_TOKEN: optionalString,
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(587),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_FROM: optionalString,
  SMTP_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  SMS_ACCOUNT_SID: optionalString,
  SMS_AUTH_TOKEN: optionalString,
  SMS_FROM: optionalString,
  SMS_API_URL: z.string().trim().url("SMS_API_URL must be a URL").default("https://api.twilio.com"),
});

export type Config = ReturnType<typeof loadConfig>;

/** LOCAL_VISION_DETECTOR_THREADS unset: one fewer than the cores (one left for HTTP, decoding and the database), at least one. */
export const defaultDetectorThreads = () => Math.max(1, availableParallelism() - 1);

interface StoredSecrets {
  sessionSecret: string;
  encryptionKey: string;
}

/** Secrets the operator did not set are generated once and kept in DATA_DIR, so sessions survive restarts. */
function loadOrCreateSecrets(dataDir: string): StoredSecrets {
  const file = path.join(dataDir, "secrets.json");
  return readSecrets(file) ?? createSecrets(file);
}

/** The stored secrets, or null when there are none yet (a file that is there but unreadable is an error, not "none"). */
function readSecrets(file: string): StoredSecrets | null {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    return JSON.parse(text) as StoredSecrets;
  } catch {
    throw new Error(`${file} is not valid JSON: fix or remove it (removing it signs everyone out and makes stored camera logins and keys unreadable)`);
  }
}

/**
 * Generates the secrets and puts them in place whole: written to a file of this process's own, then linked to the
 * name, which fails if it exists. Several processes starting at once on a fresh DATA_DIR (a cluster, a restart
 * script) all end up with the one file that won, never a half-written one; losing the race is not an error.
 */
export function createSecrets(file: string): StoredSecrets {
  const secrets: StoredSecrets = { sessionSecret: randomBytes(32).toString("base64url"), encryptionKey: randomBytes(32).toString("base64") };
  mkdirSync(path.dirname(file), { recursive: true });
  const own = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  writeFileSync(own, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: "wx" });
  try {
    linkSync(own, file);
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return readSecrets(file)!;
  } finally {
    rmSync(own, { force: true });
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const needsStoredSecrets = !e.SESSION_SECRET || !e.ENCRYPTION_KEY;
  const stored = needsStoredSecrets ? loadOrCreateSecrets(dataDir) : undefined;
  const encryptionKey = Buffer.from(e.ENCRYPTION_KEY ?? stored!.encryptionKey, "base64");
  if (encryptionKey.length !== 32) throw new Error("ENCRYPTION_KEY must be 32 bytes, base64-encoded");
  if (e.CAMERA_RELAY_PORT !== 0 && e.WEB_CONCURRENCY !== "1")
    throw new Error("Invalid configuration:\n  CAMERA_RELAY_PORT: each worker process listens on its own port; leave it 0 with WEB_CONCURRENCY above 1");

  // One parser for every address list (and one for port lists), naming the variable when an entry is wrong.
  const listOf = <T>(parse: (value: string) => T, value: string | undefined, name: string): T => {
    try {
      return parse(value ?? "");
    } catch (error) {
      throw new Error(`Invalid configuration:\n  ${name}: ${(error as Error).message}`, { cause: error });
    }
  };

  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === "production",
    port: e.PORT,
    host: e.HOST,
    /** App worker processes on this machine (server/cluster.ts); 1 runs the app in this one process. "auto": one per core. */
    webConcurrency: e.WEB_CONCURRENCY === "auto" ? availableParallelism() : Math.min(Number(e.WEB_CONCURRENCY), 64),
    dataDir,
    /** Where image bytes live: "fs" (blobDir) or "s3" (the bucket in `s3`). */
    blobStore: e.BLOB_STORE,
    blobDir: path.resolve(e.BLOB_DIR ?? path.join(dataDir, "blobs")),
    /** The S3-compatible bucket, when BLOB_STORE=s3 or any S3_ variable is set (`npm run blobs -- migrate` uses it either way). */
    s3: s3Settings(e),
    /** Blobs no row refers to are deleted once this old (an upload in flight is always younger). */
    blobOrphanGraceMs: e.BLOB_ORPHAN_GRACE_SECONDS * 1000,
    database: {
      url: e.DATABASE_URL,
      poolSize: e.DATABASE_POOL_SIZE,
      embeddedPort: e.EMBEDDED_POSTGRES_PORT,
      embeddedDir: path.join(dataDir, "postgres"),
    },
    sessionSecret: e.SESSION_SECRET ?? stored!.sessionSecret,
    sessionMaxAgeSeconds: e.SESSION_MAX_AGE_DAYS * 24 * 60 * 60,
    /** How long a process may answer from its session cache before asking PostgreSQL again (0: no cache). */
    sessionCacheSeconds: e.SESSION_CACHE_SECONDS,
    encryptionKey,
    logLevel: e.LOG_LEVEL,
    /** `/api` requests call their route module directly (docs/decisions/0001-api-dispatch.md); false: through React Router. */
    apiDirectDispatch: e.API_DIRECT_DISPATCH === "true",
    /** `/api` requests run their middlewares as one list in front of Express (docs/decisions/0007-api-fast-path.md); false: through Express. */
    apiFastPath: e.API_FAST_PATH === "true",
    /** Every JSON answer is checked against its operation's success schema (server/http/operation.ts); off in production. */
    apiResponseChecks: (e.API_RESPONSE_CHECKS ?? (e.NODE_ENV === "production" ? "false" : "true")) === "true",
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    publicUrl: e.PUBLIC_URL,
    allowedOrigins: (e.ALLOWED_ORIGINS ?? "")
      .split(",")
      .map((o) => o.trim())
      .filter(Boolean),
    secureCookies: e.SECURE_COOKIES === "auto" ? undefined : e.SECURE_COOKIES === "true",
    /** Host names (lower case, no port) requests may name besides PUBLIC_URL's, loopback and IP addresses; "*" accepts any. */
    allowedHosts: (e.ALLOWED_HOSTS ?? "")
      .split(",")
      .map(allowedHostOf)
      .filter((h): h is string => Boolean(h)),
    signInThrottle: {
      /** Guesses at one account from one address: what a stranger can do to lock the owner out of that address only. */
      maxFailuresPerUsernameAndIp: e.SIGNIN_MAX_FAILURES_PER_USERNAME_AND_IP,
      maxFailuresPerIp: e.SIGNIN_MAX_FAILURES_PER_IP,
      /** The ceiling for guesses spread over many addresses, far above the per-address one. */
      maxFailuresPerUsername: e.SIGNIN_MAX_FAILURES_PER_USERNAME,
      windowMinutes: e.SIGNIN_FAILURE_WINDOW_MINUTES,
    },
    /** Accounts created per client address in an hour; 0 = unlimited. */
    signUpsPerIpPerHour: e.SIGNUP_MAX_PER_IP_PER_HOUR,
    moondream: {
      endpoint: e.MOONDREAM_ENDPOINT.replace(/\/+$/, ""),
      /** The operator's shared key: users without their own get a free quota on it. */
      sharedApiKey: e.MOONDREAM_API_KEY,
      /** A local Moondream Station needs no key, so calls go without one and use no quota. */
      keyless: e.MOONDREAM_KEYLESS === "true",
      timeoutMs: e.MOONDREAM_TIMEOUT_MS,
      maxRetries: e.MOONDREAM_MAX_RETRIES,
      /** Calls per second per key (0 = unpaced); the cloud's base tier allows 2. */
      requestsPerSecond: e.MOONDREAM_REQUESTS_PER_SECOND,
      /** Calls per UTC day on the shared key, all users and processes together (0 = no limit). */
      sharedDailyCalls: e.SHARED_KEY_DAILY_CALLS,
    },
    /** Who may frame the scoreboard overlay (live.html): CSP frame-ancestors sources. */
    overlayFrameAncestors: listOf(parseFrameAncestors, e.OVERLAY_FRAME_ANCESTORS, "OVERLAY_FRAME_ANCESTORS"),
    ptz: {
      /** CIDRs camera addresses must fall in, so the relay cannot be aimed at the server's own network. */
      allowedNetworks: listOf(parseNetworks, e.PTZ_ALLOWED_NETWORKS, "PTZ_ALLOWED_NETWORKS"),
      /** Camera protocols' ports; any other port is refused before connecting (no port scans through the relay). */
      allowedPorts: listOf(parsePorts, e.PTZ_ALLOWED_PORTS, "PTZ_ALLOWED_PORTS"),
      /** A pooled camera connection unused this long is closed. */
      idleMs: e.PTZ_IDLE_SECONDS * 1000,
    },
    ffmpeg: {
      /** The ffmpeg camera streams run; unset: `ffmpeg` on PATH, else the npm package's static build (server/cameras/stream/ffmpeg-binary.ts). */
      path: e.FFMPEG_PATH,
      searchPath: e.PATH,
      /** A camera's ffmpeg stops this long after its last viewer or monitor leaves (a quick return reuses it). */
      streamIdleMs: e.CAMERA_STREAM_IDLE_MS,
      /** Where this process serves the cameras it owns to the deployment's other processes (server/cameras/stream/relay.ts). */
      relayHost: e.CAMERA_RELAY_HOST,
      /** 0: a free port per process (any WEB_CONCURRENCY); a fixed one needs WEB_CONCURRENCY=1. */
      relayPort: e.CAMERA_RELAY_PORT,
    },
    /** The bearer token GET /metrics asks for (Prometheus); unset: /metrics answers 404. */
    metricsToken: e.METRICS_TOKEN,
    localVision: {
      /** Threads running the local detector for this process's cameras (server/local-detector/pool/): one fewer than the cores by default. */
      detectorThreads: e.LOCAL_VISION_DETECTOR_THREADS ?? defaultDetectorThreads(),
      /** This process runs watched IP cameras' pipelines (false: a web-only process; the deployment's others run them). */
      pipelines: e.LOCAL_VISION_PIPELINES === "true",
    },
    webhooks: {
      /** Operator exceptions to the public-only rule (tests allow loopback); and extra blocks. */
      allowedCidrs: listOf(parseNetworks, e.WEBHOOK_ALLOWED_CIDRS, "WEBHOOK_ALLOWED_CIDRS"),
      blockedCidrs: listOf(parseNetworks, e.WEBHOOK_BLOCKED_CIDRS, "WEBHOOK_BLOCKED_CIDRS"),
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      /** A webhook is switched off after this many failed attempts in a row spanning at least the minutes. */
      disableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
      disableAfterMinutes: e.WEBHOOK_DISABLE_AFTER_MINUTES,
      concurrency: e.WEBHOOK_CONCURRENCY,
    },
    smtp:
      e.SMTP_HOST && e.SMTP_FROM
        ? {
            host: e.SMTP_HOST,
            port: e.SMTP_PORT,
            user: e.SMTP_USER,
            password: e.SMTP_PASSWORD,
            from: e.SMTP_FROM,
            secure: e.SMTP_SECURE === "auto" ? e.SMTP_PORT === 465 : e.SMTP_SECURE === "true",
          }
        : undefined,
    sms:
      e.SMS_ACCOUNT_SID && e.SMS_AUTH_TOKEN && e.SMS_FROM
        ? { accountSid: e.SMS_ACCOUNT_SID, authToken: e.SMS_AUTH_TOKEN, from: e.SMS_FROM, apiUrl: e.SMS_API_URL.replace(/\/+$/, "") }
        : undefined,
  };
}

/** All of the bucket's settings or none: a half-configured bucket fails at start-up, naming what is missing. */
function s3Settings(e: z.infer<typeof envSchema>) {
  const given = { S3_REGION: e.S3_REGION, S3_BUCKET: e.S3_BUCKET, S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY };
  const anySet = e.S3_ENDPOINT !== undefined || Object.values(given).some((value) => value !== undefined);
  if (e.BLOB_STORE !== "s3" && !anySet) return undefined;
  const missing = Object.entries(given).filter(([, value]) => value === undefined);
  if (missing.length) {
    const why = e.BLOB_STORE === "s3" ? "required with BLOB_STORE=s3" : "required once any S3_ variable is set";
    throw new Error(`Invalid configuration:\n${missing.map(([name]) => `  ${name}: ${why}`).join("\n")}`);
  }
  return {
    /** Unset: AWS S3 itself; otherwise any S3-compatible service (MinIO, Ceph, R2, …). */
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION!,
    bucket: e.S3_BUCKET!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    /** bucket in the path (http://host/bucket/key), as most self-hosted services need, rather than in the host name. */
    forcePathStyle: e.S3_FORCE_PATH_STYLE === "true",
  };
}

function allowedHostOf(entry: string): string | undefined {
  const trimmed = entry.trim().toLowerCase();
  if (!trimmed) return undefined;
  if (trimmed === "*") return "*";
  const name = hostNameOf(trimmed.replace(/^https?:\/\//, "").replace(/\/.*$/, ""));
  if (!name) throw new Error(`Invalid configuration:\n  ALLOWED_HOSTS: "${entry.trim()}" is not a host name`);
  return name;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value; // e.g. "loopback" or a comma-separated list of subnets, as express understands them
}

let current: Config | undefined;

/** The process-wide configuration, parsed on first use. */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
