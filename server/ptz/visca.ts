// VISCA over TCP (PTZOptics default port 5678): raw VISCA frames ending in 0xFF. A camera has two command
// sockets, so at most two commands are in flight; the rest wait in a queue. A command's promise settles on
// its ACK (or error); its socket slot is held until the completion arrives (or a timeout frees it).
import { Socket } from "node:net";
import type { ExposureSetting } from "#app/schemas/ptz";
import { logger } from "../logger";
import {
  CAMERA_TIMEOUT_MS,
  type CameraTarget,
  DIRECTION_VECTORS,
  type ExposureState,
  type FocusDirection,
  type LensDirection,
  type PanTiltDirection,
  PtzError,
  type PtzDriver,
  type StopTarget,
  lensSpeed,
  signedSpeed,
  tiltSpeed,
  unreachable,
  unsupported,
} from "./driver";
import { gainPosition, irisPosition, saturationPosition, shutterPosition, whiteBalanceGains } from "./exposure-map";

const MAX_IN_FLIGHT = 2;
/** Moves complete at once; home and preset recall complete when the camera arrives, which can take seconds. */
const COMPLETION_TIMEOUT_MS = 15_000;

interface Pending {
  bytes: Buffer;
  inquiry: boolean;
  resolve(reply: Buffer): void;
  reject(error: Error): void;
  socketNumber?: number;
  timer?: NodeJS.Timeout;
}

export const visca = {
  panTilt(direction: PanTiltDirection, speed: number): number[] {
    const { x, y } = DIRECTION_VECTORS[direction];
    const pan = x === 0 ? 3 : x < 0 ? 1 : 2;
    const tilt = y === 0 ? 3 : y > 0 ? 1 : 2;
    return [0x81, 0x01, 0x06, 0x01, speed, tiltSpeed(speed), pan, tilt, 0xff];
  },
  /** Separate pan (1–24) and tilt (1–20) speeds; direction bytes 01 left/up, 02 right/down, 03 still. */
  drive(pan: number, tilt: number): number[] {
    const p = signedSpeed(pan, 24);
    const t = signedSpeed(tilt, 20);
    if (p.sign === 0 && t.sign === 0) return visca.stopPanTilt;
    // A still axis still needs a valid speed byte.
    return [0x81, 0x01, 0x06, 0x01, p.speed || 1, t.speed || 1, p.sign === 0 ? 3 : p.sign < 0 ? 1 : 2, t.sign === 0 ? 3 : t.sign > 0 ? 1 : 2, 0xff];
  },
  stopPanTilt: [0x81, 0x01, 0x06, 0x01, 0x01, 0x01, 0x03, 0x03, 0xff],
  home: [0x81, 0x01, 0x06, 0x04, 0xff],
  zoom: (direction: LensDirection, speed: number) => [0x81, 0x01, 0x04, 0x07, (direction === "in" ? 0x20 : 0x30) | lensSpeed(speed), 0xff],
  zoomStop: [0x81, 0x01, 0x04, 0x07, 0x00, 0xff],
  focusManual: [0x81, 0x01, 0x04, 0x38, 0x03, 0xff],
  focusAuto: [0x81, 0x01, 0x04, 0x38, 0x02, 0xff],
  focus: (direction: "near" | "far", speed: number) => [0x81, 0x01, 0x04, 0x08, (direction === "far" ? 0x20 : 0x30) | lensSpeed(speed), 0xff],
  focusStop: [0x81, 0x01, 0x04, 0x08, 0x00, 0xff],
  presetSet: (n: number) => [0x81, 0x01, 0x04, 0x3f, 0x01, n, 0xff],
  presetRecall: (n: number) => [0x81, 0x01, 0x04, 0x3f, 0x02, n, 0xff],
  presetReset: (n: number) => [0x81, 0x01, 0x04, 0x3f, 0x00, n, 0xff],
  aeMode: (manual: boolean) => [0x81, 0x01, 0x04, 0x39, manual ? 0x03 : 0x00, 0xff],
  /** Direct-value commands carry one nibble per byte. */
  direct: (code: number, value: number) => [0x81, 0x01, 0x04, code, 0x00, 0x00, (value >> 4) & 0x0f, value & 0x0f, 0xff],
  wbMode: (manual: boolean) => [0x81, 0x01, 0x04, 0x35, manual ? 0x05 : 0x00, 0xff],
  versionInquiry: [0x81, 0x09, 0x00, 0x02, 0xff],
};

const VISCA_ERRORS: Record<number, string> = {
  0x01: "message length error",
  0x02: "syntax error",
  0x03: "command buffer full",
  0x04: "command cancelled",
  0x05: "no socket",
  0x41: "command not executable now",
};

export class ViscaDriver implements PtzDriver {
  readonly protocol = "visca" as const;
  private socket?: Socket;
  private connecting?: Promise<Socket>;
  private buffer = Buffer.alloc(0);
  private readonly queue: Pending[] = [];
  /** Sent, waiting for ACK (or an inquiry's reply), oldest first. */
  private readonly awaitingAck: Pending[] = [];
  /** Acknowledged, holding a camera socket until completion. */
  private readonly executing = new Map<number, Pending>();

  constructor(private readonly target: CameraTarget) {}

  async identify(): Promise<string> {
    const reply = await this.send(visca.versionInquiry, true);
    // 90 50 00 vv mm mm nn nn ww FF: vendor, model, ROM version, socket count.
    const vendor = reply.length >= 6 ? reply.readUInt16BE(2) : 0;
    const model = reply.length >= 8 ? reply.readUInt16BE(4) : 0;
    const vendorName = vendor === 0x0001 ? "Sony" : vendor === 0x0220 ? "PTZOptics" : `vendor 0x${vendor.toString(16).padStart(4, "0")}`;
    return `${vendorName} VISCA camera (model 0x${model.toString(16).padStart(4, "0")})`;
  }

  async move(direction: PanTiltDirection, speed: number) {
    await this.send(visca.panTilt(direction, speed));
  }

  async drive(pan: number, tilt: number) {
    await this.send(visca.drive(pan, tilt));
  }

  async home() {
    await this.send(visca.home);
  }

  async zoom(direction: LensDirection, speed: number) {
    await this.send(visca.zoom(direction, speed));
  }

  async focus(direction: FocusDirection, speed: number) {
    if (direction === "auto") return void (await this.send(visca.focusAuto));
    // Cameras ignore focus drive while autofocus runs, so take manual focus first.
    await this.send(visca.focusManual);
    await this.send(visca.focus(direction, speed));
  }

  async stop(what: StopTarget) {
    if (what === "move") await this.send(visca.stopPanTilt);
    else if (what === "zoom") await this.send(visca.zoomStop);
    else await this.send(visca.focusStop);
  }

  async savePreset(number: number) {
    await this.send(visca.presetSet(number));
  }

  async recallPreset(number: number) {
    await this.send(visca.presetRecall(number));
  }

  async deletePreset(number: number) {
    await this.send(visca.presetReset(number));
  }

  async setExposure(setting: ExposureSetting, value: number | "auto" | "manual", state: ExposureState) {
    if (setting === "mode") return void (await this.send(visca.aeMode(value === "manual")));
    const n = value as number;
    if (setting === "shutter" || setting === "iris" || setting === "gain") {
      await this.send(visca.aeMode(true));
      if (setting === "shutter") await this.send(visca.direct(0x4a, shutterPosition(n)));
      if (setting === "iris") await this.send(visca.direct(0x4b, irisPosition(n)));
      if (setting === "gain") await this.send(visca.direct(0x4c, gainPosition(n)));
      return;
    }
    if (setting === "saturation") return void (await this.send([0x81, 0x01, 0x04, 0x49, 0x00, 0x00, 0x00, saturationPosition(n), 0xff]));
    // temperature and tint: manual white balance with red/blue gains (R gain 0x43, B gain 0x44).
    const gains = whiteBalanceGains(state);
    await this.send(visca.wbMode(true));
    await this.send(visca.direct(0x43, gains.red));
    await this.send(visca.direct(0x44, gains.blue));
  }

  close() {
    this.socket?.destroy();
    this.socket = undefined;
    this.failAll(unreachable(this.target, "connection closed"));
  }

  /** Queues a command; resolves with the ACK (or, for an inquiry, the reply). */
  send(bytes: number[], inquiry = false): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const pending: Pending = { bytes: Buffer.from(bytes), inquiry, resolve, reject };
      pending.timer = setTimeout(() => {
        this.remove(pending);
        reject(unreachable(this.target, "no reply within 4 s"));
        // A camera that stopped answering leaves the stream in an unknown state: start afresh next time.
        this.socket?.destroy();
        this.socket = undefined;
      }, CAMERA_TIMEOUT_MS);
      this.queue.push(pending);
      this.pump();
    });
  }

  private inFlight(): number {
    return this.awaitingAck.length + this.executing.size;
  }

  private pump() {
    if (this.queue.length === 0 || this.inFlight() >= MAX_IN_FLIGHT) return;
    this.connect().then(
      (socket) => {
        while (this.queue.length > 0 && this.inFlight() < MAX_IN_FLIGHT) {
          const next = this.queue.shift()!;
          this.awaitingAck.push(next);
          socket.write(next.bytes);
        }
      },
      (error: Error) => this.failAll(error),
    );
  }

  private connect(): Promise<Socket> {
    if (this.socket && !this.socket.destroyed && !this.socket.connecting) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<Socket>((resolve, reject) => {
      const socket = new Socket();
      socket.setNoDelay(true);
      const fail = (why: string) => {
        socket.destroy();
        reject(unreachable(this.target, why));
      };
      socket.setTimeout(CAMERA_TIMEOUT_MS, () => fail("connection timed out"));
      socket.once("error", (error: NodeJS.ErrnoException) => fail(error.code ?? "connection failed"));
      socket.connect(this.target.port, this.target.address, () => {
        socket.setTimeout(0);
        socket.removeAllListeners("error");
        socket.on("error", () => socket.destroy());
        socket.on("data", (chunk) => this.onData(chunk));
        socket.on("close", () => {
          if (this.socket === socket) this.socket = undefined;
          this.failAll(unreachable(this.target, "connection closed"));
        });
        this.socket = socket;
        this.buffer = Buffer.alloc(0);
        resolve(socket);
      });
    }).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private onData(chunk: Buffer) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    let end: number;
    while ((end = this.buffer.indexOf(0xff)) >= 0) {
      const frame = this.buffer.subarray(0, end + 1);
      this.buffer = this.buffer.subarray(end + 1);
      this.onFrame(frame);
    }
    if (this.buffer.length > 64) this.buffer = Buffer.alloc(0); // garbage without terminators
  }

  private onFrame(frame: Buffer) {
    if (frame.length < 3) return;
    const kind = frame[1]! & 0xf0;
    const socketNumber = frame[1]! & 0x0f;
    if (kind === 0x40) {
      // ACK of the oldest unacknowledged command: it now holds camera socket y until completion.
      const index = this.awaitingAck.findIndex((p) => !p.inquiry);
      if (index < 0) return;
      const [pending] = this.awaitingAck.splice(index, 1);
      clearTimeout(pending!.timer);
      pending!.socketNumber = socketNumber;
      pending!.timer = setTimeout(() => this.complete(socketNumber), COMPLETION_TIMEOUT_MS);
      this.executing.set(socketNumber, pending!);
      pending!.resolve(frame);
    } else if (kind === 0x50) {
      if (frame.length > 3) {
        // An inquiry's answer carries data; inquiries get no ACK.
        const index = this.awaitingAck.findIndex((p) => p.inquiry);
        if (index >= 0) {
          const [pending] = this.awaitingAck.splice(index, 1);
          clearTimeout(pending!.timer);
          pending!.resolve(frame);
        }
      } else {
        this.complete(socketNumber);
        return;
      }
    } else if (kind === 0x60) {
      const code = frame[2]!;
      const reason = VISCA_ERRORS[code] ?? `error 0x${code.toString(16)}`;
      const executing = socketNumber > 0 ? this.executing.get(socketNumber) : undefined;
      if (executing) {
        // The command was accepted earlier and failed while running (e.g. cancelled): its caller already has its ACK.
        logger.warn({ camera: this.target.ip, reason }, "VISCA command failed after its ACK");
        this.complete(socketNumber);
        return;
      }
      const pending = this.awaitingAck.shift();
      if (pending) {
        clearTimeout(pending.timer);
        pending.reject(
          code === 0x02 || code === 0x41
            ? unsupported(this.target, `this command (${reason})`)
            : new PtzError("camera", `The camera at ${this.target.ip} refused the command: ${reason}`),
        );
      }
    }
    this.pump();
  }

  private complete(socketNumber: number) {
    const pending = this.executing.get(socketNumber);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.executing.delete(socketNumber);
    this.pump();
  }

  private remove(pending: Pending) {
    for (const list of [this.queue, this.awaitingAck]) {
      const index = list.indexOf(pending);
      if (index >= 0) list.splice(index, 1);
    }
    if (pending.socketNumber !== undefined) this.executing.delete(pending.socketNumber);
  }

  private failAll(error: Error) {
    for (const pending of [...this.queue, ...this.awaitingAck]) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    for (const pending of this.executing.values()) clearTimeout(pending.timer);
    this.queue.length = 0;
    this.awaitingAck.length = 0;
    this.executing.clear();
  }
}
