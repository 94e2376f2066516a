// The byte-level halves of the fake camera without ffmpeg: Annex-B splitting into access units, RFC 6184 FU-A
// fragmentation and RTP headers, and the Digest check against a client-computed response.
import { describe, expect, it } from "vitest";
import { AnnexBSplitter } from "./annexb";
import { Authenticator, authorizationFor } from "./auth";
import { RtpPacketiser, interleaved } from "./rtp";

describe("fake camera packets", () => {
  it("splits an Annex-B stream into access units at each delimiter, across chunk boundaries and 3/4-byte start codes", () => {
    const units: number[][] = [];
    const splitter = new AnnexBSplitter((nals) => units.push(nals.map((nal) => nal[0]! & 0x1f)));
    const aud = [0, 0, 0, 1, 0x09, 0xf0];
    const stream = Buffer.from([...aud, 0, 0, 0, 1, 0x67, 1, 2, 0, 0, 1, 0x68, 3, 0, 0, 1, 0x65, 9, 9, 9, ...aud, 0, 0, 1, 0x41, 7, 7, ...aud]);
    for (let i = 0; i < stream.length; i += 5) splitter.push(stream.subarray(i, i + 5));
    expect(units).toEqual([[7, 8, 5], [1]]);
  });

  it("sends a small NAL whole and fragments a large one as FU-A, marker on the frame's last packet", () => {
    const packetiser = new RtpPacketiser();
    const first = packetiser.sequence;
    const small = Buffer.from([0x67, 1, 2, 3]);
    const large = Buffer.concat([Buffer.from([0x65]), Buffer.alloc(3000, 0xab)]);
    const packets = packetiser.packets([small, large], 1234);
    expect(packets.map((p) => p.readUInt16BE(2))).toEqual([0, 1, 2, 3].map((i) => (first + i) & 0xffff));
    expect(packets.map((p) => p[1]! >> 7)).toEqual([0, 0, 0, 1]);
    expect(packets.every((p) => p.readUInt32BE(4) === 1234 && p.readUInt32BE(8) === packetiser.ssrc)).toBe(true);
    expect(packets[0]!.subarray(12)).toEqual(small);
    const fragments = packets.slice(1).map((p) => p.subarray(12));
    expect(fragments.map((f) => f[0])).toEqual([0x7c, 0x7c, 0x7c]); // NRI 3, type 28 (FU-A)
    expect(fragments.map((f) => f[1])).toEqual([0x85, 0x05, 0x45]); // start / middle / end, type 5
    expect(Buffer.concat([Buffer.from([0x65]), ...fragments.map((f) => f.subarray(2))])).toEqual(large);
    expect([...interleaved(2, packets[0]!).subarray(0, 4)]).toEqual([0x24, 2, 0, packets[0]!.length]);
  });

  it("writes an RTCP sender report tying the RTP timestamp to NTP wall-clock time", () => {
    const packetiser = new RtpPacketiser();
    packetiser.packets([Buffer.from([0x65, 1, 2, 3])], 90_000);
    const report = packetiser.senderReport(90_000, Date.UTC(2026, 0, 1, 0, 0, 0, 500));
    expect([report[0], report[1], report.readUInt16BE(2)]).toEqual([0x80, 200, 6]);
    expect(report.readUInt32BE(8)).toBe(Date.UTC(2026, 0, 1) / 1000 + 2_208_988_800);
    expect(report.readUInt32BE(12)).toBe(2 ** 31);
    expect([report.readUInt32BE(16), report.readUInt32BE(20), report.readUInt32BE(24)]).toEqual([90_000, 1, 4]);
  });

  it("accepts a Digest response only for the right password and a nonce it issued", () => {
    const auth = new Authenticator("admin", "pw", "digest");
    const challenge = auth.challenge();
    expect(auth.check("DESCRIBE", authorizationFor(challenge, "DESCRIBE", "rtsp://h/1", "admin", "pw"))).toBe(true);
    expect(auth.check("DESCRIBE", authorizationFor(challenge, "DESCRIBE", "rtsp://h/1", "admin", "nope"))).toBe(false);
    expect(auth.check("DESCRIBE", authorizationFor(challenge.replace(/nonce="\w+"/, 'nonce="forged"'), "DESCRIBE", "rtsp://h/1", "admin", "pw"))).toBe(false);
    expect(auth.failures).toBe(2);
  });
});
