// RFC 6184 packetisation of H.264 access units into RTP (RFC 3550) for one receiver: a NAL unit that fits is sent
// whole (single NAL unit packet), a larger one as FU-A fragments; 90 kHz timestamps, marker bit on the last packet
// of each frame. Each RTSP session has its own packetiser (its own SSRC and sequence numbers).
import { randomBytes } from "node:crypto";

const PAYLOAD_TYPE = 96;
/** Payload bytes per packet: well under a 1500-byte MTU, as a camera would send even over TCP. */
const MAX_PAYLOAD = 1400;

export class RtpPacketiser {
  readonly ssrc = randomBytes(4).readUInt32BE(0);
  sequence = randomBytes(2).readUInt16BE(0);
  private readonly timestampBase = randomBytes(4).readUInt32BE(0);
  private packetCount = 0;
  private octetCount = 0;

  /** The RTP timestamp of a frame, from its counter (frames since the camera started) at `fps`. */
  timestamp(counter: number, fps: number): number {
    return (this.timestampBase + Math.round((counter * 90_000) / fps)) >>> 0;
  }

  /** RTP packets for one access unit. */
  packets(nals: Buffer[], timestamp: number): Buffer[] {
    const payloads: Buffer[] = [];
    for (const nal of nals) {
      if (nal.length <= MAX_PAYLOAD) {
        payloads.push(nal);
        continue;
      }
      const header = nal[0]!;
      const indicator = (header & 0xe0) | 28; // FU-A, keeping F and NRI
      const type = header & 0x1f;
      for (let offset = 1; offset < nal.length; offset += MAX_PAYLOAD - 2) {
        const end = Math.min(offset + MAX_PAYLOAD - 2, nal.length);
        const fuHeader = (offset === 1 ? 0x80 : 0) | (end === nal.length ? 0x40 : 0) | type;
        payloads.push(Buffer.concat([Buffer.from([indicator, fuHeader]), nal.subarray(offset, end)]));
      }
    }
    this.packetCount += payloads.length;
    for (const payload of payloads) this.octetCount += payload.length;
    return payloads.map((payload, i) => {
      const header = Buffer.alloc(12);
      header[0] = 0x80; // version 2, no padding, no extension, no CSRC
      header[1] = (i === payloads.length - 1 ? 0x80 : 0) | PAYLOAD_TYPE;
      header.writeUInt16BE(this.sequence, 2);
      this.sequence = (this.sequence + 1) & 0xffff;
      header.writeUInt32BE(timestamp, 4);
      header.writeUInt32BE(this.ssrc, 8);
      return Buffer.concat([header, payload]);
    });
  }

  /** An RTCP sender report (RFC 3550 §6.4.1) tying an RTP timestamp to wall-clock time, as cameras send it. */
  senderReport(timestamp: number, atMs: number): Buffer {
    const report = Buffer.alloc(28);
    report[0] = 0x80; // version 2, no reception reports
    report[1] = 200; // SR
    report.writeUInt16BE(6, 2); // length in 32-bit words minus one
    report.writeUInt32BE(this.ssrc, 4);
    report.writeUInt32BE(Math.floor(atMs / 1000) + NTP_EPOCH_OFFSET, 8);
    report.writeUInt32BE(Math.floor(((atMs % 1000) / 1000) * 2 ** 32), 12);
    report.writeUInt32BE(timestamp, 16);
    report.writeUInt32BE(this.packetCount >>> 0, 20);
    report.writeUInt32BE(this.octetCount >>> 0, 24);
    return report;
  }
}

/** Seconds from 1900 (NTP) to 1970 (Unix). */
const NTP_EPOCH_OFFSET = 2_208_988_800;

/** RTP over the RTSP connection (RFC 2326 §10.12): '$', channel, 16-bit length, packet. */
export function interleaved(channel: number, packet: Buffer): Buffer {
  const frame = Buffer.alloc(4);
  frame[0] = 0x24;
  frame[1] = channel;
  frame.writeUInt16BE(packet.length, 2);
  return Buffer.concat([frame, packet]);
}
