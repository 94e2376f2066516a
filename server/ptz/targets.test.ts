// The relay is no port scanner: only camera ports are dialled (checked before any DNS or connection), a camera's
// own answers cannot redirect it elsewhere, and a refused port fails like a silent one, in wording and timing.
import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ptzConnectionSchema, type PtzConnectionInput } from "#app/schemas/ptz";
import { type FakeOnvif, startFakeOnvif } from "../../tests/fakes/ptz/onvif";
import { ProblemError } from "../errors";
import { lanAllowed, parseNetworks } from "../net/address-policy";
import { resolveCameraTarget, type CameraTargetPolicy } from "../net/camera-target";
import { CAMERA_PORTS, parsePorts } from "../net/ports";
import { AddressRefused, type LookupAll } from "../net/resolve";
import { CAMERA_TIMEOUT_MS } from "./driver";
import { relay } from "./relay";
import { PtzService } from "./service";

const loopback = lanAllowed(parseNetworks("127.0.0.0/8"));
const defaults: CameraTargetPolicy = { addresses: loopback, ports: parsePorts(CAMERA_PORTS) };
const anyPort: CameraTargetPolicy = { addresses: loopback, ports: parsePorts("1-65535") };
const conn = (input: PtzConnectionInput) => ptzConnectionSchema.parse(input);

let listener: net.Server;
let listenerPort: number;
let accepted = 0;
let onvif: FakeOnvif;
let trap: Server;
let trapHits = 0;

beforeAll(async () => {
  listener = net.createServer((socket) => {
    accepted++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  listenerPort = (listener.address() as AddressInfo).port;
  onvif = await startFakeOnvif();
  trap = createServer((_req, res) => {
    trapHits++;
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => trap.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await new Promise((resolve) => trap.close(resolve));
  await onvif.close();
});

describe("camera ports", () => {
  it.each([22, 5432, 3306, 6379])("refuses port %i on an allowed network by default, before DNS or any connection", async (port) => {
    const asked: string[] = [];
    const lookup: LookupAll = async (name) => (asked.push(name), [{ address: "127.0.0.1", family: 4 }]);
    const refusal = await resolveCameraTarget("cam.example.test", port, defaults, lookup).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(AddressRefused);
    expect((refusal as AddressRefused).message).toBe(
      `Port ${port} is not a camera port this server connects to (80, 322, 443, 554, 1259, 2020, 5678, 8000, 8080, 8554, 52381; PTZ_ALLOWED_PORTS)`,
    );
    expect(asked).toEqual([]);
  });

  it("allows the camera protocols' ports by default and what PTZ_ALLOWED_PORTS lists", async () => {
    for (const port of [80, 322, 443, 554, 1259, 2020, 5678, 8000, 8080, 8554, 52381]) expect(await resolveCameraTarget("127.0.0.1", port, defaults)).toBe("127.0.0.1");
    expect(await resolveCameraTarget("127.0.0.1", 9100, { addresses: loopback, ports: parsePorts("9000-9200") })).toBe("127.0.0.1");
  });

  it("never connects to a port outside the list: the relay answers 403 and the listener sees nothing", async () => {
    const service = new PtzService({ targets: defaults, idleMs: 60_000 });
    for (const protocol of ["visca", "http-cgi", "onvif", undefined] as const) {
      const error = await relay(() => service.connect(conn({ ip: "127.0.0.1", port: listenerPort, protocol }))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemError);
      expect((error as ProblemError).status).toBe(403);
      expect((error as ProblemError).message).toContain(`Port ${listenerPort} is not a camera port`);
    }
    expect(accepted).toBe(0);
    service.closeAll();
  });
});

describe("uniform failures", () => {
  it("answers a refused port like a silent camera: same status and wording, and no sooner than the camera deadline", async () => {
    const service = new PtzService({ targets: anyPort, idleMs: 60_000 });
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const answer = async (port: number) => {
      const started = performance.now();
      const error = (await relay(() => service.move(conn({ ip: "127.0.0.1", port, protocol: "visca" }), "left", 5)).catch((e: unknown) => e)) as ProblemError;
      return { status: error.status, title: error.init.title, detail: error.message.replace(`:${port} `, ":PORT "), ms: performance.now() - started };
    };
    // A filtered-like port: accepts the connection, never answers.
    const held: net.Socket[] = [];
    const quiet = net.createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => quiet.listen(0, "127.0.0.1", resolve));
    const refused = await answer(closed);
    const silent = await answer((quiet.address() as AddressInfo).port);
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => quiet.close(resolve));
    expect(refused).toMatchObject({ status: 504, title: "Camera unreachable", detail: "The camera at 127.0.0.1:PORT is unreachable: check its address, port and network" });
    expect({ ...silent, ms: 0 }).toEqual({ ...refused, ms: 0 });
    // A lower bound only (never flaky): the refusal itself took milliseconds.
    expect(refused.ms).toBeGreaterThanOrEqual(CAMERA_TIMEOUT_MS - 5);
    service.closeAll();
  });
});

describe("ONVIF service addresses", () => {
  it("talks only to the checked address and port, whatever the camera's capabilities name", async () => {
    onvif.serviceHost = `127.0.0.1:${(trap.address() as AddressInfo).port}`;
    const service = new PtzService({ targets: anyPort, idleMs: 60_000 });
    try {
      await service.move(conn({ ip: "127.0.0.1", port: onvif.port, protocol: "onvif", username: "admin", password: "admin" }), "left", 12);
      expect(onvif.recorder.received.map((r) => r.command.op)).toContain("ContinuousMove");
      expect(trapHits).toBe(0);
    } finally {
      onvif.serviceHost = undefined;
      await service.stop(conn({ ip: "127.0.0.1", port: onvif.port, protocol: "onvif", username: "admin", password: "admin" }), "move").catch(() => {});
      service.closeAll();
    }
  });
});
