// Auto-tracking's signed drive on each protocol's wire (fake cameras on loopback): each axis keeps its own speed
// and direction, a still axis stays still, both 0 stop, zoom rides along, and the 2 s watchdog covers it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ptzConnectionSchema, ptzDriveSchema, type PtzProtocol } from "#app/schemas/ptz";
import { type FakeHttpCgi, startFakeHttpCgi } from "../../tests/fakes/ptz/http-cgi";
import { type FakeOnvif, startFakeOnvif } from "../../tests/fakes/ptz/onvif";
import { type FakeVisca, startFakeVisca } from "../../tests/fakes/ptz/visca";
import { lanAllowed, parseNetworks } from "../net/address-policy";
import type { CameraTargetPolicy } from "../net/camera-target";
import { PtzService } from "./service";

let visca: FakeVisca;
let cgi: FakeHttpCgi;
let onvif: FakeOnvif;
let service: PtzService;
const loopbackCameras: CameraTargetPolicy = { addresses: lanAllowed(parseNetworks("127.0.0.0/8")), ports: [{ from: 1, to: 65535 }] };

beforeAll(async () => {
  [visca, cgi, onvif] = await Promise.all([startFakeVisca(), startFakeHttpCgi(), startFakeOnvif()]);
  service = new PtzService({ targets: loopbackCameras, idleMs: 60_000, watchdogMs: 2000 });
});

afterAll(async () => {
  service.closeAll();
  await Promise.all([visca.close(), cgi.close(), onvif.close()]);
});

const conn = (protocol: PtzProtocol) =>
  ptzConnectionSchema.parse({ ip: "127.0.0.1", protocol, port: protocol === "visca" ? visca.port : protocol === "http-cgi" ? cgi.port : onvif.port });

async function sent<T>(recorder: { received: { command: T }[] }, action: () => Promise<unknown>): Promise<T[]> {
  const from = recorder.received.length;
  await action();
  return recorder.received.slice(from).map((r) => r.command);
}

describe("signed pan/tilt drive", () => {
  it("VISCA: separate pan (1–24) and tilt (1–20) speed bytes with per-axis direction bytes", async () => {
    const c = conn("visca");
    expect(await sent(visca.recorder, () => service.drive(c, 5, -3))).toEqual(["81 01 06 01 05 03 02 02 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, -24, 24))).toEqual(["81 01 06 01 18 14 01 01 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, 0, 7))).toEqual(["81 01 06 01 01 07 03 01 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, -9, 0))).toEqual(["81 01 06 01 09 01 01 03 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, 0, 0))).toEqual(["81 01 06 01 01 01 03 03 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, 2, 0, 12))).toEqual(["81 01 06 01 02 01 02 03 FF", "81 01 04 07 24 FF"]);
    expect(await sent(visca.recorder, () => service.drive(c, 0, 0, 0))).toEqual(["81 01 06 01 01 01 03 03 FF", "81 01 04 07 00 FF"]);
  });

  it("HTTP-CGI: ptzctrl's eight directions with the pan and tilt speeds as positional arguments", async () => {
    const c = conn("http-cgi");
    const path = (args: string) => `/cgi-bin/ptzctrl.cgi?ptzcmd&${args}`;
    expect(await sent(cgi.recorder, () => service.drive(c, 5, -3))).toEqual([path("rightdown&5&3")]);
    expect(await sent(cgi.recorder, () => service.drive(c, -24, 24))).toEqual([path("leftup&24&20")]);
    expect(await sent(cgi.recorder, () => service.drive(c, 0, 7))).toEqual([path("up&1&7")]);
    expect(await sent(cgi.recorder, () => service.drive(c, -9, 0))).toEqual([path("left&9&1")]);
    expect(await sent(cgi.recorder, () => service.drive(c, 0, 0))).toEqual([path("ptzstop&0&0")]);
    expect(await sent(cgi.recorder, () => service.drive(c, 0, -2, -24))).toEqual([path("down&1&2"), path("zoomout&7")]);
    expect(await sent(cgi.recorder, () => service.drive(c, 0, 0, 0))).toEqual([path("ptzstop&0&0"), path("zoomstop&0")]);
  });

  it("ONVIF: one ContinuousMove velocity with each axis scaled from its own speed", async () => {
    const c = conn("onvif");
    const ops = async (action: () => Promise<unknown>) =>
      (await sent(onvif.recorder, action))
        .filter((cmd) => !["GetSystemDateAndTime", "GetCapabilities", "GetProfiles"].includes(cmd.op))
        .map((cmd) => ({ op: cmd.op, ...cmd.params }));
    expect(await ops(() => service.drive(c, 6, -12))).toEqual([{ op: "ContinuousMove", ProfileToken: "Profile_1", "PanTilt.x": "0.25", "PanTilt.y": "-0.5" }]);
    expect(await ops(() => service.drive(c, 0, 24))).toEqual([{ op: "ContinuousMove", ProfileToken: "Profile_1", "PanTilt.x": "0", "PanTilt.y": "1" }]);
    expect(await ops(() => service.drive(c, 0, 0))).toEqual([{ op: "Stop", ProfileToken: "Profile_1", PanTilt: "true" }]);
    expect(await ops(() => service.drive(c, 0, 0, 6))).toEqual([
      { op: "Stop", ProfileToken: "Profile_1", PanTilt: "true" },
      { op: "ContinuousMove", ProfileToken: "Profile_1", "Zoom.x": "0.25" },
    ]);
  });

  it("the 2 s watchdog stops a drive (and its zoom) when commands cease", async () => {
    const from = visca.recorder.received.length;
    await service.drive(conn("visca"), 4, 4, 8);
    const driven = visca.recorder.received[visca.recorder.received.length - 1]!.at;
    const panStop = await visca.recorder.next((cmd) => cmd === "81 01 06 01 01 01 03 03 FF", from, 8000);
    await visca.recorder.next((cmd) => cmd === "81 01 04 07 00 FF", from, 8000);
    expect(panStop.at - driven).toBeGreaterThanOrEqual(1900);
  });

  it("refuses speeds outside −24…24 and fractions", () => {
    const connection = { ip: "127.0.0.1" };
    expect(ptzDriveSchema.safeParse({ connection, pan: 25, tilt: 0 }).success).toBe(false);
    expect(ptzDriveSchema.safeParse({ connection, pan: 0, tilt: -25 }).success).toBe(false);
    expect(ptzDriveSchema.safeParse({ connection, pan: 1.5, tilt: 0 }).success).toBe(false);
    expect(ptzDriveSchema.safeParse({ connection, pan: -24, tilt: 24, zoom: -24 }).success).toBe(true);
  });
});
