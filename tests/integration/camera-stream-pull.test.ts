import { once } from "node:events";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ffmpegsUnderTest, makeH264Clip, readBytes, serveOnLoopback, type LoopbackServer } from "../fakes/ipcam/ffmpeg-fixtures";
import type { FfmpegBinary } from "#server/cameras/stream/ffmpeg-binary";
import { Fmp4Splitter, type Fmp4Segment } from "#server/cameras/stream/fmp4-splitter";
import { buildPullArgs, parseStreamUrl, StreamUrlError } from "#server/cameras/stream/pull-args";
import { spawnFfmpeg, type FfmpegExit } from "#server/cameras/stream/spawn-ffmpeg";

const binaries = await ffmpegsUnderTest();
const dir = mkdtempSync(path.join(os.tmpdir(), "framewise-pull-"));
// A file ffmpeg must never read: if any of its bytes come back (stdout or log), a file was read.
const secret = path.join(dir, "secret.ts");
const MARKER = "FRAMEWISE-SECRET-7f3c";
writeFileSync(secret, `${MARKER}\n`.repeat(64));
const clip = path.join(dir, "clip.mp4");
let server: LoopbackServer;

beforeAll(async () => {
  await makeH264Clip(binaries[0]!.path, clip);
  const playlist = (entry: string) => `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:2.0,\n${entry}\n#EXT-X-ENDLIST\n`;
  server = await serveOnLoopback({
    "/clip.mp4": ["video/mp4", readBytes(clip)],
    "/passwd.m3u8": ["application/vnd.apple.mpegurl", playlist("file:///etc/passwd")],
    "/secret.m3u8": ["application/vnd.apple.mpegurl", playlist(`file://${secret}`)],
    "/hold": "hold",
  });
});
afterAll(() => server?.close());

async function pull(binary: FfmpegBinary, args: string[], signal?: AbortSignal): Promise<{ out: Buffer; exit: FfmpegExit }> {
  const run = spawnFfmpeg(binary.path, args, { signal });
  const chunks: Buffer[] = [];
  run.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const exit = await run.exited;
  return { out: Buffer.concat(chunks), exit };
}

describe("stream URLs", () => {
  it.each([
    "file:///etc/passwd",
    "concat:/etc/passwd|/etc/hosts",
    "subfile:,start,0,end,100,:/etc/passwd",
    "data:text/plain,hello",
    "pipe:0",
    "/etc/passwd",
    "ftp://127.0.0.1/x",
    "rtmp://127.0.0.1/live",
    "not a url",
  ])("refuses %s before anything is spawned", (url) => {
    expect(() => buildPullArgs({ rtspTimeoutOption: "timeout" }, { url })).toThrow(StreamUrlError);
  });

  it("accepts the four camera schemes", () => {
    for (const url of ["rtsp://admin:pw@127.0.0.1:554/1", "rtsps://127.0.0.1/2", "http://127.0.0.1/mjpg", "https://127.0.0.1/snap.jpg"]) expect(parseStreamUrl(url).href).toBe(url);
  });

  it("names the RTSP socket timeout as the binary does (before ffmpeg 5, -timeout meant listen)", () => {
    const old = buildPullArgs({ rtspTimeoutOption: "stimeout" }, { url: "rtsp://127.0.0.1/1", timeoutMs: 3000 });
    expect(old).toEqual(expect.arrayContaining(["-stimeout", "3000000", "-rtsp_transport", "tcp", "-protocol_whitelist", "tcp"]));
    expect(old).not.toContain("-timeout");
  });
});

it("a binary that cannot start settles with the spawn error instead of hanging", async () => {
  const run = spawnFfmpeg(path.join(dir, "no-such-ffmpeg"), ["-version"]);
  const exit = await run.exited;
  expect(exit.spawnError).toMatchObject({ code: "ENOENT" });
});

describe.each(binaries.map((b) => [`${b.source} ffmpeg ${b.version}`, b] as const))("%s", (_name, binary) => {
  it.each(["/passwd.m3u8", "/secret.m3u8"])("a camera answering with a playlist of local files (%s) gets no file read", async (route) => {
    const { out, exit } = await pull(binary, buildPullArgs(binary, { url: `${server.url}${route}` }));
    expect(exit.code).not.toBe(0);
    expect(exit.stderr).toMatch(/whitelist|Invalid data/i);
    for (const text of [out.toString("latin1"), exit.stderr]) {
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain("root:x:0:0");
    }
  });

  it("the protocol whitelist alone refuses file: inside a playlist (with the playlist demuxer allowed)", async () => {
    const args = buildPullArgs(binary, { url: `${server.url}/secret.m3u8` });
    const at = args.indexOf("-format_whitelist");
    args.splice(at, 2); // test-only: take away the first wall to see the second one hold
    const { out, exit } = await pull(binary, args);
    expect(exit.code).not.toBe(0);
    expect(exit.stderr).toMatch(/Protocol '?file'? not on whitelist/);
    expect(out.toString("latin1")).not.toContain(MARKER);
  });

  it("pulls H.264 over HTTP into fragmented MP4 without transcoding", async () => {
    const { out, exit } = await pull(binary, buildPullArgs(binary, { url: `${server.url}/clip.mp4` }));
    expect(exit.stderr).toBe("");
    expect(exit.code).toBe(0);
    const segments = new Fmp4Splitter().push(out);
    expect(segments[0]?.kind).toBe("init");
    expect(segments[0]!.data.toString("latin1", 4, 8)).toBe("ftyp");
    expect(segments[0]!.data.includes("avc1")).toBe(true);
    const fragments = segments.filter((s): s is Extract<Fmp4Segment, { kind: "fragment" }> => s.kind === "fragment");
    // 30 frames, a keyframe every 15, frag_keyframe: two fragments, each starting on a keyframe.
    expect(fragments.length).toBe(2);
    for (const f of fragments) {
      expect(f.data.toString("latin1", 4, 8)).toBe("moof");
      expect(f.keyframe).toBe(true);
    }
    expect(segments.reduce((n, s) => n + s.data.length, 0)).toBeLessThanOrEqual(out.length);
  });

  it("transcodes to H.264 at the given size when asked", async () => {
    const { out, exit } = await pull(binary, buildPullArgs(binary, { url: `${server.url}/clip.mp4`, video: { mode: "transcode", width: 160, height: 120 } }));
    expect(exit.code, exit.stderr).toBe(0);
    const [init, ...rest] = new Fmp4Splitter().push(out);
    expect(init?.kind).toBe("init");
    const avc1 = init!.data.indexOf("avc1");
    expect(avc1).toBeGreaterThan(0);
    // VisualSampleEntry: width and height sit 24 and 26 bytes after the entry's payload start.
    expect([init!.data.readUInt16BE(avc1 + 4 + 24), init!.data.readUInt16BE(avc1 + 4 + 26)]).toEqual([160, 120]);
    expect(rest.some((s) => s.kind === "fragment" && s.keyframe)).toBe(true);
  });

  it("an RTSP pull is allowed to connect (whitelist: tcp) and fails on a closed loopback port", async () => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1");
    await once(probe, "listening");
    const { port } = probe.address() as { port: number };
    probe.close();
    await once(probe, "close");
    const { exit } = await pull(binary, buildPullArgs(binary, { url: `rtsp://127.0.0.1:${port}/1`, timeoutMs: 2000 }));
    expect(exit.code).not.toBe(0);
    expect(exit.stderr).not.toMatch(/whitelist/);
    expect(exit.stderr).toMatch(/Connection refused/i);
    expect(exit.stderr).not.toMatch(/Option .* not found/);
  });

  it("an abort kills the child and it is reaped (no zombie)", async () => {
    const controller = new AbortController();
    const held = server.requests.filter((r) => r === "/hold").length;
    const run = spawnFfmpeg(binary.path, buildPullArgs(binary, { url: `${server.url}/hold`, timeoutMs: 60_000 }), { signal: controller.signal });
    await expect.poll(() => server.requests.filter((r) => r === "/hold").length).toBeGreaterThan(held);
    expect(() => process.kill(run.pid!, 0)).not.toThrow();
    controller.abort();
    const exit = await run.exited;
    expect(exit.signal ?? exit.code).toBeTruthy();
    // A zombie still answers signal 0; a reaped process is gone.
    expect(() => process.kill(run.pid!, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }));
  });
});
