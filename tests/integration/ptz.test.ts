// The PTZ relay over HTTP: the production app drives the fake cameras; problems for bad input, refused
// addresses, wrong credentials and unreachable cameras, each within 5 s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeHttpCgi, startFakeHttpCgi } from "../fakes/ptz/http-cgi";
import { type FakeOnvif, startFakeOnvif } from "../fakes/ptz/onvif";
import { type FakeVisca, startFakeVisca } from "../fakes/ptz/visca";
import { Client, signUpUser } from "../support/client";

let onvif: FakeOnvif;
let visca: FakeVisca;
let cgi: FakeHttpCgi;
let client: Client;

beforeAll(async () => {
  [onvif, visca, cgi] = await Promise.all([startFakeOnvif({ password: "pw" }), startFakeVisca(), startFakeHttpCgi()]);
  client = (await signUpUser()).client;
});
afterAll(async () => {
  await Promise.all([onvif.close(), visca.close(), cgi.close()]);
});

const onvifConnection = () => ({ ip: "127.0.0.1", username: "admin", password: "pw", protocol: "onvif", port: onvif.port });

describe("PTZ API", () => {
  it("connects, detecting the protocol, and returns the model", async () => {
    const response = await client.post("/api/ptz/connect", { connection: { ip: " 127.0.0.1 ", username: "", password: "", port: cgi.port } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ip: "127.0.0.1", port: cgi.port, protocol: "http-cgi", model: "PTZOptics Move 4K" });
  });

  it("relays move, zoom, focus, stop and exposure to the camera", async () => {
    const connection = onvifConnection();
    const from = onvif.recorder.received.length;
    expect((await client.post("/api/ptz/move", { connection, direction: "up-right", speed: 24 })).status).toBe(200);
    expect((await client.post("/api/ptz/zoom", { connection, direction: "in" })).status).toBe(200);
    expect((await client.post("/api/ptz/focus", { connection, direction: "near" })).status).toBe(200);
    expect((await client.post("/api/ptz/stop", { connection })).status).toBe(200);
    expect((await client.post("/api/exposure", { connection, setting: "gain", value: 12 })).status).toBe(200);
    const ops = onvif.recorder.received
      .slice(from)
      .map((r) => r.command.op)
      .filter((op) => op !== "GetSystemDateAndTime" && op !== "GetCapabilities" && op !== "GetProfiles");
    expect(ops).toEqual(["ContinuousMove", "ContinuousMove", "Move", "Stop", "Stop", "Stop", "SetImagingSettings"]);
  });

  it("saves and recalls the camera's own preset slot, never a reserved number", async () => {
    const connection = { ip: "127.0.0.1", protocol: "visca", port: visca.port };
    expect((await client.post("/api/ptz/preset", { connection, action: "save", number: 5, name: "Pulpit" })).status).toBe(200);
    expect((await client.post("/api/ptz/preset", { connection, action: "recall", number: 5 })).status).toBe(200);
    expect(visca.recorder.commands.slice(-2)).toEqual(["81 01 04 3F 01 05 FF", "81 01 04 3F 02 05 FF"]);
    const reserved = await client.post("/api/ptz/preset", { connection, action: "save", number: 95 });
    expect(reserved.status).toBe(400);
    expect((await reserved.json()).errors.number).toEqual(["Preset numbers 90–99, 150 and 151 are reserved by the camera"]);
  });

  it("answers bad input with field errors", async () => {
    const response = await client.post("/api/ptz/move", { connection: { ip: "   " }, direction: "sideways", speed: 30 });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.errors["connection.ip"]).toEqual(["Please enter an IP address"]);
    expect(body.errors.direction).toBeDefined();
    expect(body.errors.speed).toEqual(["speed must be between 1 and 24"]);
    const exposure = await client.post("/api/exposure", { connection: onvifConnection(), setting: "shutter", value: 45 });
    expect(exposure.status).toBe(400);
  });

  it("refuses targets outside the allowed networks", async () => {
    const outside = (ip: string) => `The camera address ${ip} is outside the networks this server may control (PTZ_ALLOWED_NETWORKS)`;
    for (const [ip, detail] of [
      ["169.254.169.254", `${outside("169.254.169.254")}: 169.254.169.254 is a cloud metadata address`],
      ["8.8.8.8", outside("8.8.8.8")],
      ["192.168.1.10", outside("192.168.1.10")],
      ["::ffff:169.254.169.254", `${outside("::ffff:169.254.169.254")}: ::ffff:a9fe:a9fe embeds 169.254.169.254, a cloud metadata address`],
    ]) {
      const response = await client.post("/api/ptz/move", { connection: { ip, protocol: "http-cgi", port: 8080 }, direction: "left" });
      expect(response.status, ip).toBe(403);
      expect((await response.json()).detail).toBe(detail);
    }
  });

  it("reports wrong credentials and an unreachable camera within 5 s", async () => {
    let started = Date.now();
    const wrong = await client.post("/api/ptz/connect", { connection: { ...onvifConnection(), password: "wrong" } });
    expect(wrong.status).toBe(502);
    expect(await wrong.json()).toMatchObject({ title: "Camera authentication failed", detail: "The camera at 127.0.0.1 refused the username or password" });
    expect(Date.now() - started).toBeLessThan(5000);

    onvif.silent = true;
    started = Date.now();
    const silent = await client.post("/api/ptz/connect", { connection: { ...onvifConnection(), password: "other" } });
    onvif.silent = false;
    expect(silent.status).toBe(504);
    expect((await silent.json()).detail).toMatch(/^The camera at 127\.0\.0\.1:\d+ is unreachable/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("needs a signed-in user", async () => {
    const response = await new Client().post("/api/ptz/stop", { connection: onvifConnection() });
    expect(response.status).toBe(401);
  });
});
