// Finds the ffmpeg the camera streams run (FFMPEG_PATH, else PATH, else the npm-shipped static build) and probes it once.
import { spawn } from "node:child_process";
import { constants, accessSync, chmodSync, copyFileSync, mkdirSync, renameSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { config } from "#server/config";

/** Where the binary came from, in the order they are tried (docs/decisions/0004-ffmpeg-binary.md). */
export type FfmpegSource = "FFMPEG_PATH" | "PATH" | "npm";

export interface FfmpegBinary {
  path: string;
  source: FfmpegSource;
  /** The first line's version word, e.g. "5.1.9-0+deb12u1" or "N-47683-g0e8eb07980-static" (the npm build). */
  version: string;
  /**
   * The RTSP demuxer's socket timeout option. ffmpeg 5 renamed it: before 5.0 `-timeout` meant "listen for an
   * incoming connection" (and `-stimeout` was the socket timeout), so passing `-timeout` to the npm build (4.1)
   * would turn a camera pull into a server. Read from `-h demuxer=rtsp`, not guessed from the version string.
   */
  rtspTimeoutOption: "timeout" | "stimeout";
  /**
   * The ffmpeg release it belongs to, from libavformat's major version (58 → 4, 59 → 5, …): a git build's version
   * word ("N-47683-…", the npm build) carries no release number.
   */
  release: number;
}

/** Older than this is named at start-up as old (the npm fallback is ffmpeg 4, built in 2018). */
const CURRENT_RELEASE = 5;

export type FfmpegResolution = { ok: true; binary: FfmpegBinary } | { ok: false; reason: string };

export interface FfmpegSearch {
  /** FFMPEG_PATH: when set it is the only candidate, so a typo fails loudly instead of running another ffmpeg. */
  ffmpegPath?: string;
  /** The PATH to search (config().searchPath). */
  searchPath?: string;
  /** Where an executable copy of the npm binary goes when the installed file is not executable. */
  dataDir: string;
  /** The npm package's binary; tests point it elsewhere. Default: resolved from node_modules. */
  npmBinary?: string | null;
}

const PROBE_TIMEOUT_MS = 10_000;
const NPM_PACKAGE = "@ffmpeg-installer/linux-x64";

/** Tries the candidates in order; the first that answers `-version` wins. */
export async function resolveFfmpeg(search: FfmpegSearch): Promise<FfmpegResolution> {
  if (search.ffmpegPath) {
    const probed = await probe(path.resolve(search.ffmpegPath), "FFMPEG_PATH");
    return probed.ok ? probed : { ok: false, reason: `FFMPEG_PATH (${search.ffmpegPath}) is not a usable ffmpeg: ${probed.reason}` };
  }
  const reasons: string[] = [];
  const onPath = findOnPath("ffmpeg", search.searchPath);
  if (onPath) {
    const probed = await probe(onPath, "PATH");
    if (probed.ok) return probed;
    reasons.push(`${onPath}: ${probed.reason}`);
  } else reasons.push("no ffmpeg on PATH");
  const shipped = search.npmBinary === undefined ? npmBinaryPath() : search.npmBinary;
  if (shipped) {
    try {
      const probed = await probe(executableCopy(shipped, search.dataDir), "npm");
      if (probed.ok) return probed;
      reasons.push(`${NPM_PACKAGE}: ${probed.reason}`);
    } catch (error) {
      reasons.push(`${NPM_PACKAGE}: ${(error as Error).message}`);
    }
  } else reasons.push(`${NPM_PACKAGE} is not installed (it exists for Linux x64 only)`);
  return { ok: false, reason: `no usable ffmpeg (${reasons.join("; ")}); install ffmpeg or set FFMPEG_PATH` };
}

function findOnPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function npmBinaryPath(): string | undefined {
  try {
    return path.join(path.dirname(createRequire(import.meta.url).resolve(`${NPM_PACKAGE}/package.json`)), "ffmpeg");
  } catch {
    return undefined;
  }
}

/**
 * The package's own `postinstall` (`chmod u+x ffmpeg`) does not run under npm 11, which blocks dependencies'
 * install scripts. npm keeps the tarball's mode (0755 today), so the file is normally executable as installed.
 * When it is not, an executable copy goes into DATA_DIR/ffmpeg rather than a chmod in node_modules: node_modules
 * may be read-only or owned by another user in production, and npm's view of the install should stay true.
 */
function executableCopy(binary: string, dataDir: string): string {
  try {
    accessSync(binary, constants.X_OK);
    return binary;
  } catch {
    // not executable as installed: copy below
  }
  const size = statSync(binary).size;
  const dir = path.join(dataDir, "ffmpeg");
  const copy = path.join(dir, `ffmpeg-${size}`); // the size tells versions of the package apart
  try {
    if (statSync(copy).size === size) return copy;
  } catch {
    // no copy yet
  }
  mkdirSync(dir, { recursive: true });
  const temp = `${copy}.${process.pid}.tmp`;
  copyFileSync(binary, temp);
  chmodSync(temp, 0o755); // our own new file in our own directory; the rename means a half-written copy never runs
  renameSync(temp, copy);
  return copy;
}

/** Runs `-version` (and `-h demuxer=rtsp` for the option names); never throws. */
export async function probe(binary: string, source: FfmpegSource): Promise<FfmpegResolution> {
  const version = await run(binary, ["-hide_banner", "-version"]);
  if (!version.ok) return version;
  const match = /^ffmpeg version (\S+)/.exec(version.output);
  if (!match) return { ok: false, reason: "it does not answer -version like ffmpeg" };
  const rtsp = await run(binary, ["-hide_banner", "-h", "demuxer=rtsp"]);
  if (!rtsp.ok) return rtsp;
  const rtspTimeoutOption = /^\s*-stimeout\b/m.test(rtsp.output) ? "stimeout" : "timeout";
  const avformat = Number(/^libavformat\s+(\d+)\./m.exec(version.output)?.[1] ?? 0);
  return { ok: true, binary: { path: binary, source, version: match[1]!, rtspTimeoutOption, release: avformat - 54 } };
}

function run(binary: string, args: string[]): Promise<{ ok: true; output: string } | { ok: false; reason: string }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"], env: {}, timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL" });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr.resume();
    child.on("error", (error: NodeJS.ErrnoException) => resolve({ ok: false, reason: error.code === "ENOENT" ? "not found" : error.message }));
    child.on("close", (code, signal) => {
      if (code === 0) resolve({ ok: true, output });
      else resolve({ ok: false, reason: signal ? `killed by ${signal}` : `exited with status ${code}` });
    });
  });
}

let resolved: Promise<FfmpegResolution> | undefined;

/** The process's ffmpeg, found and probed once (FFMPEG_PATH and PATH from config) for start-up, the card and the streams. */
export function ffmpegBinary(): Promise<FfmpegResolution> {
  const { ffmpeg, dataDir } = config();
  resolved ??= resolveFfmpeg({ ffmpegPath: ffmpeg.path, searchPath: ffmpeg.searchPath, dataDir });
  return resolved;
}

/**
 * The one start-up warning about ffmpeg, or null: none usable (streams are off), or an old one (streams work, but
 * without a decade of fixes; the npm fallback is the 2018 static build of ffmpeg 4.1).
 */
export function ffmpegWarning(found: FfmpegResolution): string | null {
  if (!found.ok) return `IP camera streams are unavailable: ${found.reason}`;
  const { binary } = found;
  if (binary.release >= CURRENT_RELEASE) return null;
  const from = binary.source === "npm" ? `the fallback from ${NPM_PACKAGE}, built in 2018` : `${binary.source}: ${binary.path}`;
  return `IP camera streams run an old ffmpeg (${binary.version}, ffmpeg ${binary.release}, ${from}): install a current one with "apt-get install ffmpeg" (it is then found on PATH), or set FFMPEG_PATH to one`;
}

/** For the start-up "listening" line: "5.1.9-0+deb12u1 (PATH: /usr/bin/ffmpeg)", or "none" (a warning then says why). */
export function ffmpegLogLine(found: FfmpegResolution): string {
  return found.ok ? `${found.binary.version} (${found.binary.source}: ${found.binary.path})` : "none";
}
