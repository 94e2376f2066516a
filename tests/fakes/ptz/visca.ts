// A fake VISCA-over-TCP camera (PTZOptics style, port 5678 in real life): raw frames ending in 0xFF, an ACK
// (90 4y FF) and a completion (90 5y FF) per command on one of two sockets, 90 60 03 FF when both are busy,
// 90 60 02 FF for a command it does not know, inquiry replies without ACK. `silent` makes it stop answering.
import { type AddressInfo, type Server, type Socket, createServer } from "node:net";
import type { SimulatedHead } from "./head";
import { Recorder } from "./recorder";

export interface FakeVisca {
  port: number;
  /** Every command as spaced upper-case hex, e.g. "81 01 06 01 0A 0A 03 01 FF". */
  recorder: Recorder<string>;
  /** The most commands it ever had executing at once (a real camera has two sockets). */
  maxInFlight: number;
  /** Stop answering (ACKs and completions) while true. */
  silent: boolean;
  /** How long home and preset recall take before their completion. */
  slowCompletionMs: number;
  close(): Promise<void>;
}

const KNOWN = [/^81 01 06 0[1-5] /, /^81 01 04 (07|08|38|39|3F|4A|4B|4C|35|43|44|49|10|18|47|A1|A2) /, /^81 09 /];

/** What an accepted command does to the simulated head (pan/tilt drive, zoom, home, presets). */
function steer(head: SimulatedHead, b: Buffer) {
  if (b[1] !== 0x01) return;
  if (b[2] === 0x06 && b[3] === 0x01) {
    const pan = b[6] === 1 ? -b[4]! : b[6] === 2 ? b[4]! : 0;
    const tilt = b[7] === 1 ? b[5]! : b[7] === 2 ? -b[5]! : 0;
    return head.drive(pan, tilt);
  }
  if (b[2] === 0x06 && b[3] === 0x04) return head.home();
  if (b[2] === 0x04 && b[3] === 0x07) {
    const p = b[4]!;
    const fraction = ((p & 0x0f) + 1) / 8;
    return head.zoomAt(p === 0 ? 0 : p === 2 ? 0.5 : p === 3 ? -0.5 : (p & 0xf0) === 0x20 ? fraction : -fraction);
  }
  if (b[2] === 0x04 && b[3] === 0x3f && b[4] === 0x01) return head.savePreset(b[5]!);
  if (b[2] === 0x04 && b[3] === 0x3f && b[4] === 0x02) return head.recallPreset(b[5]!);
}

/** `head`: a simulated head the commands steer (the closed-loop follow test). */
export async function startFakeVisca(options: { head?: SimulatedHead } = {}): Promise<FakeVisca> {
  const sockets = new Set<Socket>();
  const fake: FakeVisca & { server?: Server } = {
    port: 0,
    recorder: new Recorder<string>(),
    maxInFlight: 0,
    silent: false,
    slowCompletionMs: 300,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
    const busy = new Set<number>();
    let buffer = Buffer.alloc(0);
    socket.on("data", (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      let end: number;
      while ((end = buffer.indexOf(0xff)) >= 0) {
        const frame = buffer.subarray(0, end + 1);
        buffer = buffer.subarray(end + 1);
        const hex = [...frame].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(" ");
        fake.recorder.record(hex);
        if (fake.silent) continue;
        if (hex.startsWith("81 09 00 02")) {
          socket.write(Buffer.from([0x90, 0x50, 0x02, 0x20, 0x05, 0x12, 0x01, 0x00, 0x02, 0xff]));
          continue;
        }
        if (hex.startsWith("81 09")) {
          socket.write(Buffer.from([0x90, 0x50, 0x00, 0x00, 0x00, 0x00, 0xff]));
          continue;
        }
        if (!KNOWN.some((pattern) => pattern.test(hex))) {
          socket.write(Buffer.from([0x90, 0x60, 0x02, 0xff]));
          continue;
        }
        const free = [1, 2].find((n) => !busy.has(n));
        if (free === undefined) {
          socket.write(Buffer.from([0x90, 0x60, 0x03, 0xff]));
          continue;
        }
        busy.add(free);
        if (options.head) steer(options.head, frame);
        fake.maxInFlight = Math.max(fake.maxInFlight, busy.size);
        socket.write(Buffer.from([0x90, 0x40 | free, 0xff]));
        const slow = /^81 01 06 04|^81 01 04 3F 02/.test(hex);
        const finish = () => {
          busy.delete(free);
          if (!fake.silent && !socket.destroyed) socket.write(Buffer.from([0x90, 0x50 | free, 0xff]));
        };
        if (slow) setTimeout(finish, fake.slowCompletionMs);
        else setImmediate(finish);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}
