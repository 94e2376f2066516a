// The PTZ relay: checks the target address, keeps one pooled driver per camera and credentials (closed when
// idle), and makes sure motion always ends — an explicit stop, a pulse's timer, or the 2 s watchdog when the
// browser stops sending commands (a closed laptop lid must not leave a camera spinning).
import { createHash } from "node:crypto";
import type { ExposureSetting, PtzCameraInfo, PtzConnection, PtzDirection, PtzProtocol } from "#app/schemas/ptz";
import { logger } from "../logger";
import { resolveCameraTarget, type CameraTargetPolicy } from "../net/camera-target";
import { AddressRefused } from "../net/resolve";
import { type CameraTarget, type ExposureState, type FocusDirection, type LensDirection, PtzError, type PtzDriver, type StopTarget, unreachable } from "./driver";
import { HttpCgiDriver } from "./http-cgi";
import { OnvifDriver } from "./onvif";
import { ViscaDriver } from "./visca";

export const WATCHDOG_MS = 2000;
const DEFAULT_PORTS: Record<PtzProtocol, number> = { onvif: 80, visca: 5678, "http-cgi": 80 };

interface PoolEntry {
  key: string;
  driver: PtzDriver;
  target: CameraTarget;
  exposure: ExposureState;
  /** What is moving, so the watchdog stops exactly that. */
  moving: Set<StopTarget>;
  watchdog?: NodeJS.Timeout;
  idle?: NodeJS.Timeout;
}

export interface PtzServiceOptions {
  targets: CameraTargetPolicy;
  idleMs: number;
  watchdogMs?: number;
}

export class PtzService {
  private readonly pool = new Map<string, PoolEntry>();
  private readonly watchdogMs: number;

  constructor(private readonly options: PtzServiceOptions) {
    this.watchdogMs = options.watchdogMs ?? WATCHDOG_MS;
  }

  /** Verifies the camera and reports its model; finds the protocol when none is given. */
  async connect(connection: PtzConnection): Promise<PtzCameraInfo> {
    if (connection.protocol) {
      const pooled = this.pool.has(this.keyOf(connection));
      const entry = await this.entry(connection);
      let model: string;
      try {
        model = await entry.driver.identify();
      } catch (error) {
        // Nothing worth keeping a socket for: a wrong protocol, password or address.
        this.evict(entry);
        // A pooled session's kept-alive connection may have been dropped by the camera (a reboot, its keep-alive
        // timeout firing as the request went out): that says nothing about the camera, so ask once more afresh.
        if (pooled && error instanceof PtzError && error.kind === "unreachable") return this.connect(connection);
        throw error;
      }
      return { ip: connection.ip, port: entry.target.port, protocol: entry.driver.protocol, model };
    }
    // Probe all three at once; prefer ONVIF, then HTTP-CGI, then VISCA among those that answer.
    const order: PtzProtocol[] = ["onvif", "http-cgi", "visca"];
    const results = await Promise.allSettled(order.map((protocol) => this.connect({ ...connection, protocol })));
    const found = results.find((r): r is PromiseFulfilledResult<PtzCameraInfo> => r.status === "fulfilled");
    if (found) return found.value;
    const errors = results.map((r) => (r as PromiseRejectedResult).reason as unknown);
    // The most telling failure wins: a refused address or password says more than "nothing answered".
    for (const kind of ["refused", "auth", "camera", "unsupported"] as const) {
      const error = errors.find((e) => e instanceof PtzError && e.kind === kind);
      if (error) throw error;
    }
    throw new PtzError("unreachable", `No PTZ camera answered at ${connection.ip} (tried ONVIF, PTZOptics HTTP-CGI and VISCA over TCP)`);
  }

  async move(connection: PtzConnection, direction: PtzDirection, speed: number, durationMs?: number) {
    const entry = await this.entry(connection);
    if (direction === "home") {
      entry.moving.delete("move");
      return entry.driver.home();
    }
    await entry.driver.move(direction, speed);
    if (durationMs !== undefined) {
      // A pulse (click-to-move): the server ends it, so a lost stop request cannot leave it running.
      this.motion(entry, "move", durationMs);
    } else {
      this.motion(entry, "move");
    }
  }

  /**
   * Auto-tracking: pan and tilt at signed speeds (both 0 stops pan/tilt); zoom, when given, at a signed speed
   * (positive in, 0 stops). Each moving part is under the same watchdog as move and zoom.
   */
  async drive(connection: PtzConnection, pan: number, tilt: number, zoom?: number) {
    const entry = await this.entry(connection);
    if (pan === 0 && tilt === 0) {
      entry.moving.delete("move");
      if (entry.moving.size === 0) this.disarm(entry);
    }
    await entry.driver.drive(pan, tilt);
    if (pan !== 0 || tilt !== 0) this.motion(entry, "move");
    if (zoom === undefined) return;
    if (zoom === 0) {
      entry.moving.delete("zoom");
      if (entry.moving.size === 0) this.disarm(entry);
      return entry.driver.stop("zoom");
    }
    await entry.driver.zoom(zoom > 0 ? "in" : "out", Math.abs(zoom));
    this.motion(entry, "zoom");
  }

  async zoom(connection: PtzConnection, direction: LensDirection, speed: number) {
    const entry = await this.entry(connection);
    await entry.driver.zoom(direction, speed);
    this.motion(entry, "zoom");
  }

  async focus(connection: PtzConnection, direction: FocusDirection, speed: number) {
    const entry = await this.entry(connection);
    await entry.driver.focus(direction, speed);
    if (direction !== "auto") this.motion(entry, "focus");
  }

  async stop(connection: PtzConnection, what: StopTarget | "all") {
    const entry = await this.entry(connection);
    const targets: StopTarget[] = what === "all" ? ["move", "zoom", "focus"] : [what];
    for (const target of targets) entry.moving.delete(target);
    if (entry.moving.size === 0) this.disarm(entry);
    for (const target of targets) await entry.driver.stop(target);
  }

  async preset(connection: PtzConnection, action: "save" | "recall" | "delete", number: number, name = "") {
    const entry = await this.entry(connection);
    if (action === "save") await entry.driver.savePreset(number, name);
    else if (action === "recall") await entry.driver.recallPreset(number);
    else await entry.driver.deletePreset(number);
  }

  async exposure(connection: PtzConnection, setting: ExposureSetting, value: number | "auto" | "manual") {
    const entry = await this.entry(connection);
    if (setting === "temperature" || setting === "tint") entry.exposure[setting] = value as number;
    await entry.driver.setExposure(setting, value, entry.exposure);
  }

  /** Shutdown: stops whatever is still moving (the watchdog dies with the process), then closes every connection. */
  async stopAndCloseAll() {
    await Promise.all(
      [...this.pool.values()].map(async (entry) => {
        for (const target of entry.moving) {
          await entry.driver.stop(target).catch((error: unknown) => logger.warn({ camera: entry.target.ip, err: errorMessage(error) }, "PTZ stop at shutdown failed"));
        }
      }),
    );
    this.closeAll();
  }

  /** Closes every pooled connection (shutdown and tests). */
  closeAll() {
    for (const entry of this.pool.values()) this.evict(entry);
  }

  get size() {
    return this.pool.size;
  }

  /** Any command re-arms the watchdog; when it fires, whatever still moves is stopped. */
  private motion(entry: PoolEntry, what: StopTarget, afterMs = this.watchdogMs) {
    entry.moving.add(what);
    clearTimeout(entry.watchdog);
    entry.watchdog = setTimeout(() => {
      entry.watchdog = undefined;
      const moving = [...entry.moving];
      entry.moving.clear();
      if (afterMs === this.watchdogMs) logger.warn({ camera: entry.target.ip, moving }, "PTZ watchdog: no command for 2 s, stopping the camera");
      void (async () => {
        for (const target of moving) {
          await entry.driver.stop(target).catch((error: unknown) => logger.warn({ camera: entry.target.ip, err: errorMessage(error) }, "PTZ stop failed"));
        }
      })();
    }, afterMs);
    entry.watchdog.unref();
  }

  private disarm(entry: PoolEntry) {
    clearTimeout(entry.watchdog);
    entry.watchdog = undefined;
  }

  private async entry(connection: PtzConnection): Promise<PoolEntry> {
    const protocol = connection.protocol ?? "onvif";
    const port = connection.port ?? DEFAULT_PORTS[protocol];
    const key = this.keyOf(connection);
    let entry = this.pool.get(key);
    if (!entry) {
      const address = await this.resolve(connection.ip, port);
      const target: CameraTarget = { address, ip: connection.ip, port, username: connection.username, password: connection.password };
      const driver = protocol === "visca" ? new ViscaDriver(target) : protocol === "http-cgi" ? new HttpCgiDriver(target) : new OnvifDriver(target);
      entry = this.pool.get(key) ?? { key, driver, target, exposure: { temperature: 50, tint: 0 }, moving: new Set() };
      this.pool.set(key, entry);
    }
    this.touch(entry);
    return entry;
  }

  private keyOf(connection: PtzConnection): string {
    const protocol = connection.protocol ?? "onvif";
    const port = connection.port ?? DEFAULT_PORTS[protocol];
    // Credentials are part of the key only as a hash, so pooled entries never mix users' passwords.
    const secret = createHash("sha256").update(`${connection.username}\0${connection.password}`).digest("hex");
    return `${protocol}|${connection.ip.toLowerCase()}|${port}|${secret}`;
  }

  /** Checked before any connection: the port, then the address the name resolves to (pinned: no rebinding). */
  private async resolve(host: string, port: number): Promise<string> {
    try {
      return await resolveCameraTarget(host, port, this.options.targets);
    } catch (error) {
      if (error instanceof AddressRefused) throw new PtzError("refused", error.message);
      throw unreachable({ ip: host, port });
    }
  }

  private touch(entry: PoolEntry) {
    clearTimeout(entry.idle);
    entry.idle = setTimeout(() => {
      // Never drop a camera that is still moving: its watchdog needs the driver.
      if (entry.watchdog) return this.touch(entry);
      this.evict(entry);
    }, this.options.idleMs);
    entry.idle.unref();
  }

  private evict(entry: PoolEntry) {
    clearTimeout(entry.idle);
    this.disarm(entry);
    entry.driver.close();
    this.pool.delete(entry.key);
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
