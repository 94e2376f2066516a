// Test-only: the ffmpegs under test (the one found as in production, plus the npm 4.1 build when installed),
// H.264 clips made with testsrc2, and a loopback HTTP server that serves files or holds connections open.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { probe, resolveFfmpeg, type FfmpegBinary } from "#server/cameras/stream/ffmpeg-binary";

/** Every distinct ffmpeg this machine offers, so the arguments are checked against each version's option names. */
export async function ffmpegsUnderTest(): Promise<FfmpegBinary[]> {
  const found: FfmpegBinary[] = [];
  const usual = await resolveFfmpeg({ searchPath: process.env.PATH, dataDir: os.tmpdir() });
  if (!usual.ok) throw new Error(usual.reason);
  found.push(usual.binary);
  try {
    const npm = path.join(path.dirname(createRequire(import.meta.url).resolve("@ffmpeg-installer/linux-x64/package.json")), "ffmpeg");
    if (existsSync(npm) && npm !== usual.binary.path) {
      const probed = await probe(npm, "npm");
      if (probed.ok) found.push(probed.binary);
    }
  } catch {
    // the optional package is absent on this platform
  }
  return found;
}

/** Runs ffmpeg to completion; rejects with its stderr on failure. */
export function runFfmpeg(binary: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${args.join(" ")}: ${stderr}`))));
  });
}

/** A 2 s 320x240 15 fps H.264 clip with a keyframe every 15 frames, moov first (streamable over plain HTTP). */
export async function makeH264Clip(binary: string, file: string): Promise<void> {
  await runFfmpeg(binary, [
    ...["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=15:duration=2"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-g", "15", "-keyint_min", "15", "-sc_threshold", "0", "-pix_fmt", "yuv420p"],
    ...["-movflags", "+faststart", file],
  ]);
}

export interface LoopbackServer {
  url: string;
  /** Request paths in arrival order. */
  requests: string[];
  close(): Promise<void>;
}

/** Serves `routes` (path → [content type, body]) on 127.0.0.1; "hold" answers nothing and keeps the socket open. */
export async function serveOnLoopback(routes: Record<string, [string, Buffer | string] | "hold">): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? "");
    const route = routes[req.url ?? ""];
    if (route === "hold") return;
    if (!route) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": route[0], "content-length": Buffer.byteLength(route[1]) }).end(route[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const readBytes = (file: string) => readFileSync(file);
