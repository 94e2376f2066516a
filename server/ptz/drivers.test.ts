// Each protocol's exact wire commands, against the fake cameras of tests/fakes/ptz on loopback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ptzConnectionSchema, type PtzConnectionInput, type PtzProtocol } from "#app/schemas/ptz";
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
// The fakes listen on loopback at random ports, which the default camera networks and ports refuse.
const loopbackCameras: CameraTargetPolicy = { addresses: lanAllowed(parseNetworks("127.0.0.0/8")), ports: [{ from: 1, to: 65535 }] };

beforeAll(async () => {
  [visca, cgi, onvif] = await Promise.all([startFakeVisca(), startFakeHttpCgi({ password: "cgi-secret" }), startFakeOnvif({ password: "onvif-secret" })]);
  service = new PtzService({ targets: loopbackCameras, idleMs: 60_000, watchdogMs: 2000 });
});

afterAll(async () => {
  service.closeAll();
  await Promise.all([visca.close(), cgi.close(), onvif.close()]);
});

const conn = (protocol: PtzProtocol, extra: Partial<PtzConnectionInput> = {}) => {
  const port = protocol === "visca" ? visca.port : protocol === "http-cgi" ? cgi.port : onvif.port;
  const password = protocol === "http-cgi" ? "cgi-secret" : protocol === "onvif" ? "onvif-secret" : "";
  return ptzConnectionSchema.parse({ ip: " 127.0.0.1 ", username: "", password, protocol, port, ...extra });
};

/** Runs an action and returns what the camera received because of it. */
async function sent<T>(recorder: { received: { command: T }[] }, action: () => Promise<unknown>): Promise<T[]> {
  const from = recorder.received.length;
  await action();
  return recorder.received.slice(from).map((r) => r.command);
}

describe("VISCA over TCP", () => {
  const c = () => conn("visca");
  it("identifies the camera from its version inquiry", async () => {
    expect(await service.connect(c())).toEqual({ ip: "127.0.0.1", port: visca.port, protocol: "visca", model: "PTZOptics VISCA camera (model 0x0512)" });
  });

  it("sends the pan/tilt drive bytes for every direction, pan speed as given and tilt capped at 20", async () => {
    const expected: Record<string, string> = {
      up: "03 01",
      down: "03 02",
      left: "01 03",
      right: "02 03",
      "up-left": "01 01",
      "up-right": "02 01",
      "down-left": "01 02",
      "down-right": "02 02",
    };
    for (const [direction, bytes] of Object.entries(expected)) {
      expect(await sent(visca.recorder, () => service.move(c(), direction as "up", 24))).toEqual([`81 01 06 01 18 14 ${bytes} FF`]);
    }
    expect(await sent(visca.recorder, () => service.move(c(), "left", 10))).toEqual(["81 01 06 01 0A 0A 01 03 FF"]);
    expect(await sent(visca.recorder, () => service.stop(c(), "move"))).toEqual(["81 01 06 01 01 01 03 03 FF"]);
  });

  it("sends home, zoom, focus, presets and exposure bytes", async () => {
    expect(await sent(visca.recorder, () => service.move(c(), "home", 12))).toEqual(["81 01 06 04 FF"]);
    expect(await sent(visca.recorder, () => service.zoom(c(), "in", 24))).toEqual(["81 01 04 07 27 FF"]);
    expect(await sent(visca.recorder, () => service.zoom(c(), "out", 8))).toEqual(["81 01 04 07 32 FF"]);
    expect(await sent(visca.recorder, () => service.stop(c(), "zoom"))).toEqual(["81 01 04 07 00 FF"]);
    expect(await sent(visca.recorder, () => service.focus(c(), "far", 8))).toEqual(["81 01 04 38 03 FF", "81 01 04 08 22 FF"]);
    expect(await sent(visca.recorder, () => service.focus(c(), "near", 4))).toEqual(["81 01 04 38 03 FF", "81 01 04 08 31 FF"]);
    expect(await sent(visca.recorder, () => service.stop(c(), "focus"))).toEqual(["81 01 04 08 00 FF"]);
    expect(await sent(visca.recorder, () => service.focus(c(), "auto", 4))).toEqual(["81 01 04 38 02 FF"]);
    expect(await sent(visca.recorder, () => service.preset(c(), "save", 12))).toEqual(["81 01 04 3F 01 0C FF"]);
    expect(await sent(visca.recorder, () => service.preset(c(), "recall", 12))).toEqual(["81 01 04 3F 02 0C FF"]);
    expect(await sent(visca.recorder, () => service.preset(c(), "delete", 12))).toEqual(["81 01 04 3F 00 0C FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "mode", "auto"))).toEqual(["81 01 04 39 00 FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "shutter", 250))).toEqual(["81 01 04 39 03 FF", "81 01 04 4A 00 00 00 07 FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "iris", 100))).toEqual(["81 01 04 39 03 FF", "81 01 04 4B 00 00 01 01 FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "gain", 24))).toEqual(["81 01 04 39 03 FF", "81 01 04 4C 00 00 00 08 FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "saturation", 50))).toEqual(["81 01 04 49 00 00 00 07 FF"]);
    // Warmest (0) with neutral tint: red 228 (E4), blue 28 (1C); then tint +50 lifts both.
    expect(await sent(visca.recorder, () => service.exposure(c(), "temperature", 0))).toEqual(["81 01 04 35 05 FF", "81 01 04 43 00 00 0E 04 FF", "81 01 04 44 00 00 01 0C FF"]);
    expect(await sent(visca.recorder, () => service.exposure(c(), "tint", 50))).toEqual(["81 01 04 35 05 FF", "81 01 04 43 00 00 0F 0F FF", "81 01 04 44 00 00 04 0E FF"]);
  });

  it("keeps at most two commands in flight while home and preset recalls take their time", async () => {
    visca.maxInFlight = 0;
    visca.slowCompletionMs = 400;
    await Promise.all([service.move(c(), "home", 12), service.preset(c(), "recall", 3), service.preset(c(), "recall", 4), service.move(c(), "left", 5)]);
    await service.stop(c(), "move");
    expect(visca.maxInFlight).toBeLessThanOrEqual(2);
    visca.slowCompletionMs = 300;
  });

  it("reports a command the camera rejects as unsupported", async () => {
    const driver = await import("./visca");
    const direct = new driver.ViscaDriver({ address: "127.0.0.1", ip: "127.0.0.1", port: visca.port, username: "", password: "" });
    await expect(direct.send([0x81, 0x01, 0x7e, 0x01, 0xff])).rejects.toMatchObject({ kind: "unsupported" });
    direct.close();
  });
});

describe("PTZOptics HTTP-CGI", () => {
  const c = () => conn("http-cgi");
  it("authenticates with Digest and identifies the camera", async () => {
    expect(await service.connect(c())).toMatchObject({ protocol: "http-cgi", model: "PTZOptics Move 4K" });
  });

  it("sends the positional ptzctrl.cgi commands", async () => {
    const p = "/cgi-bin/ptzctrl.cgi?ptzcmd&";
    const dirs: Record<string, string> = {
      up: "up",
      down: "down",
      left: "left",
      right: "right",
      "up-left": "leftup",
      "up-right": "rightup",
      "down-left": "leftdown",
      "down-right": "rightdown",
    };
    for (const [direction, word] of Object.entries(dirs)) {
      expect(await sent(cgi.recorder, () => service.move(c(), direction as "up", 22))).toEqual([`${p}${word}&22&20`]);
    }
    expect(await sent(cgi.recorder, () => service.stop(c(), "all"))).toEqual([`${p}ptzstop&0&0`, `${p}zoomstop&0`, `${p}focusstop&0`]);
    expect(await sent(cgi.recorder, () => service.move(c(), "home", 12))).toEqual([`${p}home`]);
    expect(await sent(cgi.recorder, () => service.zoom(c(), "in", 24))).toEqual([`${p}zoomin&7`]);
    expect(await sent(cgi.recorder, () => service.zoom(c(), "out", 4))).toEqual([`${p}zoomout&1`]);
    expect(await sent(cgi.recorder, () => service.focus(c(), "near", 8))).toEqual([`${p}focusin&2`]);
    expect(await sent(cgi.recorder, () => service.focus(c(), "far", 8))).toEqual([`${p}focusout&2`]);
    expect(await sent(cgi.recorder, () => service.focus(c(), "auto", 8))).toEqual(["/cgi-bin/param.cgi?set_focus&one_shot_focus"]);
    expect(await sent(cgi.recorder, () => service.preset(c(), "save", 101))).toEqual([`${p}posset&101`]);
    expect(await sent(cgi.recorder, () => service.preset(c(), "recall", 101))).toEqual([`${p}poscall&101`]);
    expect(await sent(cgi.recorder, () => service.preset(c(), "delete", 101))).toEqual([]);
  });

  it("sets exposure with post_image_value, falling back to param.cgi on G2 firmware", async () => {
    const v = "/cgi-bin/ptzctrl.cgi?post_image_value&";
    expect(await sent(cgi.recorder, () => service.exposure(c(), "shutter", 60))).toEqual([`${v}aemode&manual`, `${v}shutter&2`]);
    expect(await sent(cgi.recorder, () => service.exposure(c(), "iris", 50))).toEqual([`${v}aemode&manual`, `${v}iris&9`]);
    expect(await sent(cgi.recorder, () => service.exposure(c(), "gain", 12))).toEqual([`${v}aemode&manual`, `${v}gain&4`]);
    expect(await sent(cgi.recorder, () => service.exposure(c(), "saturation", 100))).toEqual([`${v}saturation&14`]);
    expect(await sent(cgi.recorder, () => service.exposure(c(), "temperature", 100))).toEqual([`${v}wbmode&5`, `${v}rgain&28`, `${v}bgain&228`]);
    const legacy = ptzConnectionSchema.parse({ ...c(), username: "admin", password: "cgi-secret" });
    cgi.legacyImagePath = true;
    const fresh = new PtzService({ targets: { ...loopbackCameras, addresses: lanAllowed(parseNetworks("127.0.0.1")) }, idleMs: 60_000 });
    const commands = await sent(cgi.recorder, () => fresh.exposure(legacy, "mode", "auto"));
    expect(commands.filter((path) => path.includes("post_image_value"))).toEqual([`${v}aemode&auto`, "/cgi-bin/param.cgi?post_image_value&aemode&auto"]);
    fresh.closeAll();
    cgi.legacyImagePath = false;
  });

  it("answers wrong credentials with an auth failure within 5 s", async () => {
    const started = Date.now();
    await expect(service.connect(conn("http-cgi", { password: "wrong" }))).rejects.toMatchObject({
      kind: "auth",
      message: "The camera at 127.0.0.1 refused the username or password",
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("ONVIF", () => {
  const c = () => conn("onvif");
  const ops = (commands: { op: string; params: Record<string, string> }[]) => commands.map((cmd) => ({ op: cmd.op, ...cmd.params }));

  it("connects with a WS-Security digest and names the camera", async () => {
    expect(await service.connect(c())).toMatchObject({ protocol: "onvif", model: "PTZOptics PT20X-NDI" });
  });

  it("sends ContinuousMove velocities scaled from speed, Stop, GotoHomePosition", async () => {
    const expected: Record<string, [string, string]> = {
      up: ["0", "0.5"],
      down: ["0", "-0.5"],
      left: ["-0.5", "0"],
      right: ["0.5", "0"],
      "up-left": ["-0.5", "0.5"],
      "up-right": ["0.5", "0.5"],
      "down-left": ["-0.5", "-0.5"],
      "down-right": ["0.5", "-0.5"],
    };
    for (const [direction, [x, y]] of Object.entries(expected)) {
      const [move] = await sent(onvif.recorder, () => service.move(c(), direction as "up", 12));
      expect(move).toMatchObject({ op: "ContinuousMove", params: { ProfileToken: "Profile_1", "PanTilt.x": x, "PanTilt.y": y } });
      expect(move!.params["Zoom.x"]).toBeUndefined();
    }
    expect(ops(await sent(onvif.recorder, () => service.stop(c(), "move")))).toEqual([{ op: "Stop", ProfileToken: "Profile_1", PanTilt: "true" }]);
    expect(ops(await sent(onvif.recorder, () => service.move(c(), "home", 12)))).toEqual([{ op: "GotoHomePosition", ProfileToken: "Profile_1" }]);
  });

  it("zooms with ContinuousMove, focuses with the imaging service", async () => {
    expect(ops(await sent(onvif.recorder, () => service.zoom(c(), "in", 24)))).toEqual([{ op: "ContinuousMove", ProfileToken: "Profile_1", "Zoom.x": "1" }]);
    expect(ops(await sent(onvif.recorder, () => service.zoom(c(), "out", 6)))).toEqual([{ op: "ContinuousMove", ProfileToken: "Profile_1", "Zoom.x": "-0.25" }]);
    expect(ops(await sent(onvif.recorder, () => service.stop(c(), "zoom")))).toEqual([{ op: "Stop", ProfileToken: "Profile_1", Zoom: "true" }]);
    expect(ops(await sent(onvif.recorder, () => service.focus(c(), "far", 12)))).toEqual([{ op: "Move", VideoSourceToken: "VideoSource_1", Speed: "0.5" }]);
    expect(ops(await sent(onvif.recorder, () => service.focus(c(), "near", 6)))).toEqual([{ op: "Move", VideoSourceToken: "VideoSource_1", Speed: "-0.25" }]);
    expect(ops(await sent(onvif.recorder, () => service.stop(c(), "focus")))).toEqual([{ op: "Stop", VideoSourceToken: "VideoSource_1" }]);
    expect(ops(await sent(onvif.recorder, () => service.focus(c(), "auto", 6)))).toEqual([
      { op: "SetImagingSettings", VideoSourceToken: "VideoSource_1", AutoFocusMode: "AUTO", ForcePersistence: "false" },
    ]);
  });

  it("saves, recalls and removes presets by token, escaping the name", async () => {
    expect(ops(await sent(onvif.recorder, () => service.preset(c(), "save", 7, "Stage <left>")))).toEqual([
      { op: "SetPreset", ProfileToken: "Profile_1", PresetName: "Stage &lt;left&gt;", PresetToken: "7" },
    ]);
    expect(ops(await sent(onvif.recorder, () => service.preset(c(), "recall", 7)))).toEqual([{ op: "GotoPreset", ProfileToken: "Profile_1", PresetToken: "7" }]);
    expect(ops(await sent(onvif.recorder, () => service.preset(c(), "delete", 7)))).toEqual([{ op: "RemovePreset", ProfileToken: "Profile_1", PresetToken: "7" }]);
  });

  it("maps manual exposure to imaging settings", async () => {
    const settings = async (setting: "shutter", value: number | "auto") => (await sent(onvif.recorder, () => service.exposure(c(), setting, value)))[0]!.params;
    expect(await settings("shutter", 60)).toMatchObject({ Mode: "MANUAL", ExposureTime: "16667" });
    expect(await settings("iris" as "shutter", 0)).toMatchObject({ Mode: "MANUAL", Iris: "-22" });
    expect(await settings("gain" as "shutter", 0)).toMatchObject({ Mode: "MANUAL", Gain: "0" });
    expect(await settings("saturation" as "shutter", 30)).toMatchObject({ ColorSaturation: "30" });
    expect(await settings("mode" as "shutter", "auto")).toMatchObject({ Mode: "AUTO" });
    expect(await settings("temperature" as "shutter", 50)).toMatchObject({ Mode: "MANUAL", CrGain: "128", CbGain: "128" });
  });

  it("gives wrong credentials and unsupported commands their own failures", async () => {
    await expect(service.connect(conn("onvif", { password: "nope" }))).rejects.toMatchObject({ kind: "auth" });
    onvif.unsupported.add("Move");
    await expect(service.focus(c(), "far", 8)).rejects.toMatchObject({ kind: "unsupported", message: "The camera at 127.0.0.1 does not support focus" });
    onvif.unsupported.delete("Move");
  });
});

describe("safety", () => {
  it("the watchdog stops each protocol's camera when commands cease for 2 s", async () => {
    for (const [protocol, recorder, isStop] of [
      ["visca", visca.recorder, (cmd: unknown) => cmd === "81 01 06 01 01 01 03 03 FF"],
      ["http-cgi", cgi.recorder, (cmd: unknown) => String(cmd).endsWith("ptzstop&0&0")],
      ["onvif", onvif.recorder, (cmd: unknown) => (cmd as { op: string }).op === "Stop"],
    ] as const) {
      const from = recorder.received.length;
      await service.move(conn(protocol), "right", 10);
      const moved = recorder.received[recorder.received.length - 1]!.at;
      const stop = await (recorder as { next(test: (c: unknown) => boolean, from: number, timeoutMs: number): Promise<{ at: number }> }).next(isStop, from, 8000);
      expect(stop.at - moved).toBeGreaterThanOrEqual(1900);
    }
  });

  it("a repeated move keeps the camera moving; a pulse stops on its own", async () => {
    const from = visca.recorder.received.length;
    await service.move(conn("visca"), "up", 10, 200);
    const stop = await visca.recorder.next((cmd) => cmd === "81 01 06 01 01 01 03 03 FF", from, 5000);
    expect(stop.at - visca.recorder.received[from]!.at).toBeLessThan(1900);
  });

  it("sets a pooled ONVIF session up afresh when the camera dropped its kept-alive connection", async () => {
    expect(await service.connect(conn("onvif"))).toMatchObject({ protocol: "onvif", port: onvif.port });
    onvif.dropKeptConnections();
    expect(await service.connect(conn("onvif"))).toMatchObject({ protocol: "onvif", port: onvif.port });
    // Commands go on with the fresh session.
    expect((await sent(onvif.recorder, () => service.stop(conn("onvif"), "move"))).map((c) => c.op)).toEqual(["Stop"]);
  });

  it("a camera that stops answering fails within 5 s as unreachable, and recovers", async () => {
    for (const fake of [visca, cgi, onvif]) fake.silent = true;
    for (const protocol of ["visca", "http-cgi", "onvif"] as const) {
      const fresh = new PtzService({ targets: loopbackCameras, idleMs: 60_000 });
      const started = Date.now();
      await expect(fresh.move(conn(protocol), "left", 5)).rejects.toMatchObject({ kind: "unreachable" });
      expect(Date.now() - started).toBeLessThan(5000);
      fresh.closeAll();
    }
    for (const fake of [visca, cgi, onvif]) fake.silent = false;
    await service.stop(conn("visca"), "move");
  });

  it("a closed port is unreachable within 5 s, and protocol detection finds the camera", async () => {
    const started = Date.now();
    await expect(service.connect(conn("visca", { port: 1 }))).rejects.toMatchObject({ kind: "unreachable" });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await service.connect(conn("onvif", { protocol: undefined }))).toMatchObject({ protocol: "onvif" });
  });
});
