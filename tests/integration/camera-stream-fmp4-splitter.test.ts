import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ffmpegsUnderTest, readBytes, runFfmpeg } from "../fakes/ipcam/ffmpeg-fixtures";
import { Fmp4Error, Fmp4Splitter, type Fmp4Segment } from "#server/cameras/stream/fmp4-splitter";

const [ffmpeg] = await ffmpegsUnderTest();
const dir = mkdtempSync(path.join(os.tmpdir(), "framewise-fmp4-"));
let perFrame: Buffer;

beforeAll(async () => {
  // One fragment per frame, a keyframe every 5 frames: 15 fragments, keyframes at 0, 5 and 10.
  const file = path.join(dir, "per-frame.mp4");
  await runFfmpeg(ffmpeg!.path, [
    ...["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=15:duration=1"],
    ...["-c:v", "libx264", "-preset", "ultrafast", "-g", "5", "-keyint_min", "5", "-sc_threshold", "0", "-bf", "0", "-pix_fmt", "yuv420p"],
    ...["-f", "mp4", "-movflags", "frag_every_frame+empty_moov+default_base_moof", file],
  ]);
  perFrame = readBytes(file);
});

const fragments = (segments: Fmp4Segment[]) => segments.filter((s): s is Extract<Fmp4Segment, { kind: "fragment" }> => s.kind === "fragment");

describe("Fmp4Splitter", () => {
  it("yields the init segment, then one fragment per moof+mdat, flagging those that start on a keyframe", () => {
    const segments = new Fmp4Splitter().push(perFrame);
    expect(segments[0]?.kind).toBe("init");
    expect(segments[0]!.data.toString("latin1", 4, 8)).toBe("ftyp");
    expect(segments[0]!.data.includes("moov")).toBe(true);
    expect(segments.filter((s) => s.kind === "init")).toHaveLength(1);
    const keyframes = fragments(segments).map((f) => f.keyframe);
    expect(keyframes).toEqual(Array.from({ length: 15 }, (_, i) => i % 5 === 0));
  });

  it("gives the same segments however the bytes are chunked (one byte at a time, odd sizes)", () => {
    const whole = new Fmp4Splitter().push(perFrame);
    for (const size of [1, 7, 4096]) {
      const splitter = new Fmp4Splitter();
      const out: Fmp4Segment[] = [];
      for (let at = 0; at < perFrame.length; at += size) out.push(...splitter.push(perFrame.subarray(at, at + size)));
      expect(out.map((s) => [s.kind, s.data.length, s.kind === "fragment" && s.keyframe])).toEqual(whole.map((s) => [s.kind, s.data.length, s.kind === "fragment" && s.keyframe]));
      expect(Buffer.concat(out.map((s) => s.data)).equals(Buffer.concat(whole.map((s) => s.data)))).toBe(true);
    }
  });

  it("re-joins to a stream a player accepts: init + fragments are the file minus its trailing index", () => {
    const segments = new Fmp4Splitter().push(perFrame);
    const joined = Buffer.concat(segments.map((s) => s.data));
    expect(perFrame.subarray(0, joined.length).equals(joined)).toBe(true);
    expect(perFrame.toString("latin1", joined.length + 4, joined.length + 8)).toBe("mfra");
  });

  it("refuses what is not fragmented MP4 instead of buffering it", () => {
    expect(() => new Fmp4Splitter().push(Buffer.from("HTTP/1.1 200 OK\r\n\r\n"))).toThrow(Fmp4Error);
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(0xffff_fff0, 0);
    huge.write("mdat", 4, "latin1");
    expect(() => new Fmp4Splitter().push(huge)).toThrow(/not a fragmented MP4/);
    const moofFirst = perFrame.subarray(perFrame.indexOf("moof") - 4);
    expect(() => new Fmp4Splitter().push(moofFirst)).toThrow(/before the init segment/);
  });

  // ffmpeg writes first_sample_flags in trun; other muxers leave the flags to tfhd or to the init segment's trex.
  describe("finds the first sample's flags wherever the muxer put them", () => {
    const NON_SYNC = 0x0001_0000;
    const box = (type: string, ...parts: Buffer[]) => {
      const body = Buffer.concat(parts);
      const head = Buffer.alloc(8);
      head.writeUInt32BE(8 + body.length, 0);
      head.write(type, 4, "latin1");
      return Buffer.concat([head, body]);
    };
    const u32 = (...values: number[]) => Buffer.concat(values.map((v) => Buffer.from([v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255])));
    const stream = (trexFlags: number, tfhd: Buffer, trun: Buffer) =>
      Buffer.concat([
        box("ftyp", Buffer.from("isom"), u32(0)),
        box("moov", box("mvhd", Buffer.alloc(100)), box("mvex", box("trex", u32(0, 1, 1, 0, 0, trexFlags)))),
        box("moof", box("mfhd", u32(0, 1)), box("traf", box("tfhd", tfhd), box("trun", trun))),
        box("mdat", Buffer.from([0, 0, 0, 1, 0x65])),
      ]);
    const keyframe = (bytes: Buffer) => fragments(new Fmp4Splitter().push(bytes))[0]?.keyframe;

    it("trex default_sample_flags when the fragment names none", () => {
      const tfhd = u32(0x020000, 1); // default-base-is-moof only
      const trun = u32(0x000001, 1, 0); // data_offset only
      expect(keyframe(stream(NON_SYNC, tfhd, trun))).toBe(false);
      expect(keyframe(stream(0x0200_0000, tfhd, trun))).toBe(true);
    });

    it("tfhd default_sample_flags over trex, after the optional fields before it", () => {
      const trun = u32(0x000001, 1, 0);
      expect(keyframe(stream(NON_SYNC, u32(0x020020 | 0x8 | 0x10, 1, 512, 1000, 0x0200_0000), trun))).toBe(true);
      expect(keyframe(stream(0, u32(0x020020, 1, NON_SYNC), trun))).toBe(false);
    });

    it("the first per-sample flags in trun over tfhd's default", () => {
      const tfhd = u32(0x020020, 1, NON_SYNC);
      // data_offset, then per sample: duration, size, flags
      expect(keyframe(stream(NON_SYNC, tfhd, u32(0x000701, 2, 0, 512, 1000, 0x0200_0000, 512, 900, NON_SYNC)))).toBe(true);
      expect(keyframe(stream(0, u32(0x020000, 1), u32(0x000401, 1, 0, NON_SYNC)))).toBe(false);
    });
  });
});
