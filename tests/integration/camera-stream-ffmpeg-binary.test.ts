import { chmodSync, copyFileSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ffmpegsUnderTest } from "../fakes/ipcam/ffmpeg-fixtures";
import { logEntries } from "../support/processes";
import { startApp, tempDir } from "../support/stack";
import { createOwnDatabase } from "../support/webhook-receiver";
import { ffmpegWarning, resolveFfmpeg } from "#server/cameras/stream/ffmpeg-binary";

const binaries = await ffmpegsUnderTest();
const [real] = binaries;
const npmBuild = binaries.find((binary) => binary.source === "npm");
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

describe("an old ffmpeg", () => {
  it("the npm fallback (4.1, 2018) is named old in one warning that says how to install a current one; a current ffmpeg gets none", () => {
    expect(npmBuild, "the npm build is installed (optional dependency)").toBeDefined();
    expect(npmBuild!.release).toBe(4);
    const warning = ffmpegWarning({ ok: true, binary: npmBuild! });
    expect(warning).toMatch(
      /^IP camera streams run an old ffmpeg \(N-47683-g0e8eb07980-static, ffmpeg 4, the fallback from @ffmpeg-installer\/linux-x64, built in 2018\): install a current one with "apt-get install ffmpeg"/,
    );
    expect(warning).not.toContain("\n");
    expect(real!.release).toBeGreaterThanOrEqual(5);
    expect(ffmpegWarning({ ok: true, binary: real! })).toBeNull();
  });

  it("is said once at start-up, as one warning line, when the app runs it", async () => {
    const app = await startApp({ FFMPEG_PATH: npmBuild!.path, DATABASE_URL: await createOwnDatabase(), DATABASE_POOL_SIZE: "2", DATA_DIR: tempDir("old-ffmpeg") });
    try {
      const warnings = logEntries(app).filter((entry) => entry.level === 40);
      expect(warnings.map((entry) => entry.msg)).toEqual([expect.stringContaining("old ffmpeg (N-47683-g0e8eb07980-static, ffmpeg 4, FFMPEG_PATH: ")]);
      expect(warnings[0]!.msg).toContain('install a current one with "apt-get install ffmpeg"');
    } finally {
      await app.stop();
    }
  }, 60_000);
});
