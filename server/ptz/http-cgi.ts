// PTZOptics HTTP-CGI: positional GET arguments under /cgi-bin/ptzctrl.cgi and /cgi-bin/param.cgi, HTTP
// Digest auth (MD5 or SHA-256, qop=auth). The challenge is kept and reused with a rising nonce count, so
// a held joystick costs one round trip per command, over a keep-alive connection.
import { Agent, request } from "node:http";
import type { ExposureSetting } from "#app/schemas/ptz";
import {
  CAMERA_TIMEOUT_MS,
  type CameraTarget,
  type ExposureState,
  type FocusDirection,
  type LensDirection,
  type PanTiltDirection,
  PtzError,
  type PtzDriver,
  type StopTarget,
  authFailed,
  lensSpeed,
  signedSpeed,
  tiltSpeed,
  unreachable,
  unsupported,
} from "./driver";
import { type DigestChallenge, digestAuthorization, parseChallenge } from "../net/digest-auth";
import { gainPosition, irisPosition, saturationPosition, shutterPosition, whiteBalanceGains } from "./exposure-map";

const CGI_DIRECTIONS: Record<PanTiltDirection, string> = {
  up: "up",
  down: "down",
  left: "left",
  right: "right",
  "up-left": "leftup",
  "up-right": "rightup",
  "down-left": "leftdown",
  "down-right": "rightdown",
};

interface CgiResponse {
  status: number;
  body: string;
}

export class HttpCgiDriver implements PtzDriver {
  readonly protocol = "http-cgi" as const;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 2 });
  private challenge?: DigestChallenge;
  /** Newer firmware takes image values on ptzctrl.cgi, G2 on param.cgi; remembered once learnt. */
  private imagePath: "ptzctrl" | "param" = "ptzctrl";

  constructor(private readonly target: CameraTarget) {}

  async identify(): Promise<string> {
    const { body } = await this.get("/cgi-bin/param.cgi?get_device_conf");
    // Older firmware answers key="value" lines, newer JSON; either way look for a model or device name.
    const field = (name: string) => new RegExp(`"?${name}"?\\s*[=:]\\s*"([^"]*)"`, "i").exec(body)?.[1];
    return field("devname") ?? field("model") ?? field("device_model") ?? "PTZOptics camera";
  }

  async move(direction: PanTiltDirection, speed: number) {
    await this.ptz(`${CGI_DIRECTIONS[direction]}&${speed}&${tiltSpeed(speed)}`);
  }

  /** ptzctrl takes one of eight directions with its own pan (1–24) and tilt (1–20) speed; a still axis gets speed 1, which the camera ignores. */
  async drive(pan: number, tilt: number) {
    const p = signedSpeed(pan, 24);
    const t = signedSpeed(tilt, 20);
    if (p.sign === 0 && t.sign === 0) return this.stop("move");
    const direction = `${p.sign < 0 ? "left" : p.sign > 0 ? "right" : ""}${t.sign > 0 ? "up" : t.sign < 0 ? "down" : ""}`;
    await this.ptz(`${direction}&${p.speed || 1}&${t.speed || 1}`);
  }

  async home() {
    await this.ptz("home");
  }

  async zoom(direction: LensDirection, speed: number) {
    await this.ptz(`zoom${direction}&${lensSpeed(speed)}`);
  }

  async focus(direction: FocusDirection, speed: number) {
    if (direction === "auto") return void (await this.get("/cgi-bin/param.cgi?set_focus&one_shot_focus"));
    await this.ptz(`${direction === "near" ? "focusin" : "focusout"}&${lensSpeed(speed)}`);
  }

  async stop(what: StopTarget) {
    await this.ptz(what === "move" ? "ptzstop&0&0" : what === "zoom" ? "zoomstop&0" : "focusstop&0");
  }

  async savePreset(number: number) {
    await this.ptz(`posset&${number}`);
  }

  async recallPreset(number: number) {
    await this.ptz(`poscall&${number}`);
  }

  async deletePreset() {
    // The CGI has no preset delete; the slot is simply free to be overwritten by the next save.
  }

  async setExposure(setting: ExposureSetting, value: number | "auto" | "manual", state: ExposureState) {
    if (setting === "mode") return this.image("aemode", value === "manual" ? "manual" : "auto");
    const n = value as number;
    if (setting === "shutter" || setting === "iris" || setting === "gain") {
      await this.image("aemode", "manual");
      if (setting === "shutter") await this.image("shutter", shutterPosition(n));
      if (setting === "iris") await this.image("iris", irisPosition(n));
      if (setting === "gain") await this.image("gain", gainPosition(n));
      return;
    }
    if (setting === "saturation") return this.image("saturation", saturationPosition(n));
    const gains = whiteBalanceGains(state);
    await this.image("wbmode", 5);
    await this.image("rgain", gains.red);
    await this.image("bgain", gains.blue);
  }

  close() {
    this.agent.destroy();
  }

  private async ptz(args: string) {
    await this.get(`/cgi-bin/ptzctrl.cgi?ptzcmd&${args}`);
  }

  private async image(param: string, value: string | number) {
    const path = (base: string) => `/cgi-bin/${base}.cgi?post_image_value&${param}&${value}`;
    try {
      await this.get(path(this.imagePath === "ptzctrl" ? "ptzctrl" : "param"));
    } catch (error) {
      if (!(error instanceof PtzError && error.kind === "unsupported") || this.imagePath === "param") throw error;
      this.imagePath = "param";
      await this.get(path("param"));
    }
  }

  /** One authenticated GET; a 401 with a fresh challenge is answered once, a second 401 means wrong credentials. */
  async get(path: string): Promise<CgiResponse> {
    let response = await this.once(path);
    if (response.status === 401) {
      if (!this.challenge) throw authFailed(this.target);
      response = await this.once(path);
      if (response.status === 401) {
        this.challenge = undefined;
        throw authFailed(this.target);
      }
    }
    if (response.status === 404 || response.status === 501) throw unsupported(this.target, `this command (${path.split("?")[1]?.split("&").slice(0, 2).join(" ")})`);
    if (response.status < 200 || response.status >= 300) throw new PtzError("camera", `The camera at ${this.target.ip} answered HTTP ${response.status}`);
    // Newer firmware reports failures inside a 200: {"Response":{"Result":"Failure"}}.
    const result = /"Result"\s*:\s*"(\w+)"/.exec(response.body)?.[1];
    if (result && result.toLowerCase() !== "success") throw new PtzError("camera", `The camera at ${this.target.ip} refused the command (${result})`);
    return response;
  }

  private once(path: string): Promise<CgiResponse> {
    const headers: Record<string, string> = { Host: hostHeader(this.target) };
    if (this.challenge) headers.Authorization = this.authorization(path, this.challenge);
    return new Promise<CgiResponse>((resolve, reject) => {
      const req = request({ host: this.target.address, port: this.target.port, path, method: "GET", agent: this.agent, headers, timeout: CAMERA_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= 64 * 1024) chunks.push(chunk);
        });
        res.on("end", () => {
          if (res.statusCode === 401) this.challenge = parseChallenge(res.headers["www-authenticate"]);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", () => reject(unreachable(this.target, "connection lost")));
      });
      req.on("timeout", () => req.destroy(unreachable(this.target, "no answer within 4 s")));
      req.on("error", (error: NodeJS.ErrnoException) => reject(error instanceof PtzError ? error : unreachable(this.target, error.code ?? "connection failed")));
      req.end();
    });
  }

  private authorization(uri: string, challenge: DigestChallenge): string {
    return digestAuthorization(challenge, { method: "GET", uri, username: this.target.username, password: this.target.password });
  }
}

function hostHeader(target: CameraTarget): string {
  return `${target.address.includes(":") ? `[${target.address}]` : target.address}:${target.port}`;
}
