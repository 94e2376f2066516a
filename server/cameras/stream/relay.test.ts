// The relay's request signatures: only this deployment's processes (one SESSION_SECRET) may open a camera's relay;
// and what a relaying stream does when the owner's relay says the camera changed.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import type * as RelayModule from "./relay";
import type * as StreamModule from "./camera-stream";

let relay: typeof RelayModule;
let stream: typeof StreamModule;

beforeAll(async () => {
  // Set before the config is first read, so no secrets file is written and nothing is logged.
  process.env.LOG_LEVEL = "silent";
  process.env.SESSION_SECRET ??= "unit-test-session-secret";
  process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
  relay = await import("./relay");
  stream = await import("./camera-stream");
});

const PATH = "/cameras/00000000-0000-4000-8000-000000000001/00000000-0000-4000-8000-000000000002/live";
const NOW = 1_800_000_000_000;

describe("relay request signatures", () => {
  it("accept a request signed for its path, until it expires", () => {
    const header = relay.signRelayRequest(PATH, NOW);
    expect(relay.verifyRelayRequest(PATH, header, NOW)).toBe(true);
    expect(relay.verifyRelayRequest(PATH, header, NOW + 59_000)).toBe(true);
    expect(relay.verifyRelayRequest(PATH, header, NOW + 61_000)).toBe(false);
  });

  it("refuse one signed for another camera, a changed expiry, another key, or none", () => {
    const header = relay.signRelayRequest(PATH, NOW);
    expect(relay.verifyRelayRequest(PATH.replace("0002/live", "0003/live"), header, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH.replace("/live", "/snapshot"), header, NOW)).toBe(false);
    const [expires, mac] = header.split(" ")[1]!.split(".");
    expect(relay.verifyRelayRequest(PATH, `FramewiseRelay ${Number(expires) + 1000}.${mac}`, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, `FramewiseRelay ${expires}.${randomBytes(32).toString("base64url")}`, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, undefined, NOW)).toBe(false);
    expect(relay.verifyRelayRequest(PATH, "FramewiseRelay", NOW)).toBe(false);
  });

  it("refuse a signature valid far into the future (a leaked one must not last)", () => {
    const header = relay.signRelayRequest(PATH, NOW + 10 * 60_000);
    expect(relay.verifyRelayRequest(PATH, header, NOW)).toBe(false);
  });
});

describe("a stream relaying another process's pull", () => {
  let owner: WebSocketServer;
  const opened: string[] = [];
  beforeAll(async () => {
    // The owner's relay answers as forget() makes it: the camera changed (1012).
    owner = new WebSocketServer({ host: "127.0.0.1", port: 0 });
    owner.on("connection", (ws, req) => {
      opened.push(req.headers.authorization ?? "");
      ws.close(1012, "camera changed");
    });
    await new Promise((resolve) => owner.once("listening", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => owner.close(() => resolve())));

  it("takes the owner's 1012 as the change notice: its viewers reconnect, and a hold does not keep it claiming the old address", async () => {
    const { port } = owner.address() as { port: number };
    let claims = 0;
    const replaced: unknown[] = [];
    const source = {
      cameraId: "00000000-0000-4000-8000-000000000002",
      userId: "00000000-0000-4000-8000-000000000001",
      viewUrl: "rtsp://127.0.0.1:9/1",
      mainUrl: null,
      snapshotUrl: null,
      credentials: null,
      codec: "h264",
    };
    const relaying = new stream.CameraStream(source, {
      idleMs: 60_000,
      backoff: { firstMs: 1_000, maxMs: 30_000 },
      timeoutMs: 5_000,
      viewerLimits: { inFlightBytes: 1 << 20, queueBytes: 1 << 20 },
      onStatus: () => {},
      claim: async () => ((claims += 1), { owner: false, relayUrl: `http://127.0.0.1:${port}` }),
      changed: (changed) => replaced.push(changed),
    });
    let closed: number | undefined;
    relaying.watch({ send: (_, done) => done(), close: (code) => (closed = code) });
    relaying.hold(); // a monitor's
    await expect.poll(() => replaced).toEqual([relaying]);
    expect(closed).toBe(1012);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatch(/^FramewiseRelay \d+\./); // signed
    expect(claims).toBe(1);
  });
});
