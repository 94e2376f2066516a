import { chmodSync, copyFileSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ffmpegsUnderTest } from "../fakes/ipcam/ffmpeg-fixtures";
import { resolveFfmpeg } from "#server/cameras/stream/ffmpeg-binary";

const [real] = await ffmpegsUnderTest();
const temp = () => mkdtempSync(path.join(os.tmpdir(), "framewise-ffbin-"));

describe("resolveFfmpeg", () => {
  it("FFMPEG_PATH wins and is probed for its version", async () => {
    const found = await resolveFfmpeg({ ffmpegPath: real!.path, searchPath: "", dataDir: temp(), npmBinary: null });
    expect(found).toEqual({ ok: true, binary: expect.objectContaining({ path: real!.path, source: "FFMPEG_PATH", version: real!.version }) });
  });

  it("a wrong FFMPEG_PATH is an error naming it, not a silent fall-back to another ffmpeg", async () => {
    const found = await resolveFfmpeg({ ffmpegPath: "/nonexistent/ffmpeg", searchPath: path.dirname(real!.path), dataDir: temp() });
    expect(found).toEqual({ ok: false, reason: expect.stringMatching(/^FFMPEG_PATH \(\/nonexistent\/ffmpeg\) is not a usable ffmpeg: not found/) });
  });

  it("finds ffmpeg on PATH", async () => {
    const dir = temp();
    copyFileSync(real!.path, path.join(dir, "ffmpeg"));
    chmodSync(path.join(dir, "ffmpeg"), 0o755);
    const found = await resolveFfmpeg({ searchPath: `/nonexistent${path.delimiter}${dir}`, dataDir: temp(), npmBinary: null });
    expect(found.ok && found.binary).toMatchObject({ path: path.join(dir, "ffmpeg"), source: "PATH" });
  });

  it("runs a copy of the npm binary from DATA_DIR when the installed file is not executable (its postinstall did not run)", async () => {
    const pkg = temp();
    const shipped = path.join(pkg, "ffmpeg");
    copyFileSync(real!.path, shipped);
    chmodSync(shipped, 0o644);
    const dataDir = temp();
    const found = await resolveFfmpeg({ searchPath: "", dataDir, npmBinary: shipped });
    expect(found.ok && found.binary.source).toBe("npm");
    const used = found.ok ? found.binary.path : "";
    expect(path.dirname(used)).toBe(path.join(dataDir, "ffmpeg"));
    expect(statSync(used).mode & 0o777).toBe(0o755);
    expect(statSync(shipped).mode & 0o777).toBe(0o644); // node_modules untouched
    // Found again (next start): the same copy, not another one.
    const again = await resolveFfmpeg({ searchPath: "", dataDir, npmBinary: shipped });
    expect(again.ok && again.binary.path).toBe(used);
  });

  it("says clearly when there is no usable ffmpeg", async () => {
    const dir = temp();
    writeFileSync(path.join(dir, "ffmpeg"), "#!/bin/sh\necho not really\n", { mode: 0o755 });
    const found = await resolveFfmpeg({ searchPath: dir, dataDir: temp(), npmBinary: null });
    expect(found).toEqual({ ok: false, reason: expect.stringMatching(/^no usable ffmpeg \(.*does not answer -version like ffmpeg.*is not installed.*set FFMPEG_PATH$/) });
  });
});
