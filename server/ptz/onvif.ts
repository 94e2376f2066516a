// ONVIF through the `onvif` package (SOAP over HTTP with a WS-Security UsernameToken digest): PTZ service for
// ContinuousMove/Stop/GotoHomePosition/presets, Imaging service for focus and exposure.
// The package's own connect() also walks video sources and throws from a callback on unusual devices, so the
// session is set up here step by step: device time (for the digest's timestamp), capabilities, profiles.
import { Agent } from "node:http";
import onvif from "onvif";
import type { ExposureSetting } from "#app/schemas/ptz";
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
  authFailed,
  unreachable,
  unsupported,
} from "./driver";
import { withDeadline } from "../deadline";
import { clamp, whiteBalanceGains } from "./exposure-map";

export type Callback = (error: Error | null, result?: unknown) => void;

/** The parts of the package's Cam this driver uses (its bundled typings describe far more). */
export interface OnvifCam {
  getSystemDateAndTime(cb: Callback): void;
  getCapabilities(cb: Callback): void;
  getProfiles(cb: Callback): void;
  getDeviceInformation(cb: Callback): void;
  getStreamUri(options: Record<string, unknown>, cb: Callback): void;
  getSnapshotUri(options: Record<string, unknown>, cb: Callback): void;
  continuousMove(options: Record<string, unknown>, cb: Callback): void;
  stop(options: Record<string, unknown>, cb: Callback): void;
  gotoHomePosition(options: Record<string, unknown>, cb: Callback): void;
  setPreset(options: Record<string, unknown>, cb: Callback): void;
  gotoPreset(options: Record<string, unknown>, cb: Callback): void;
  removePreset(options: Record<string, unknown>, cb: Callback): void;
  imagingMove(options: Record<string, unknown>, cb: Callback): void;
  imagingStop(options: Record<string, unknown>, cb: Callback): void;
  uri?: Record<string, unknown>;
  /** The package's request helper: used for SetImagingSettings, whose public wrapper drops zero values and white balance. */
  _request(options: { service: string; body: string }, cb: Callback): void;
  _envelopeHeader(): string;
  _envelopeFooter(): string;
}

interface Profile {
  $: { token: string };
  PTZConfiguration?: unknown;
  videoSourceConfiguration?: { sourceToken?: string };
}

const SHUTTER_MICROSECONDS = (denominator: number) => Math.round(1_000_000 / denominator);

export class OnvifDriver implements PtzDriver {
  readonly protocol = "onvif" as const;
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 2 });
  private session?: Promise<{ cam: OnvifCam; profileToken: string; sourceToken: string }>;

  constructor(private readonly target: CameraTarget) {}

  async identify(): Promise<string> {
    const info = (await this.call("device information", (cam, cb) => cam.getDeviceInformation(cb))) as { manufacturer?: unknown; model?: unknown } | undefined;
    const name = [info?.manufacturer, info?.model].filter((part) => typeof part === "string" || typeof part === "number").join(" ");
    return name || "ONVIF camera";
  }

  async move(direction: PanTiltDirection, speed: number) {
    const { x, y } = DIRECTION_VECTORS[direction];
    const v = round(speed / 24);
    await this.call("continuous pan/tilt", (cam, cb, s) => cam.continuousMove({ profileToken: s.profileToken, x: x * v, y: y * v, onlySendPanTilt: true }, cb));
  }

  /** One velocity vector: x and y are each axis's speed over 24, so both axes keep their own speed. */
  async drive(pan: number, tilt: number) {
    const x = round(Math.max(-24, Math.min(24, Math.round(pan))) / 24);
    const y = round(Math.max(-24, Math.min(24, Math.round(tilt))) / 24);
    if (x === 0 && y === 0) return this.stop("move");
    await this.call("continuous pan/tilt", (cam, cb, s) => cam.continuousMove({ profileToken: s.profileToken, x, y, onlySendPanTilt: true }, cb));
  }

  async home() {
    await this.call("home position", (cam, cb, s) => cam.gotoHomePosition({ profileToken: s.profileToken }, cb));
  }

  async zoom(direction: LensDirection, speed: number) {
    const v = round(speed / 24) * (direction === "in" ? 1 : -1);
    await this.call("continuous zoom", (cam, cb, s) => cam.continuousMove({ profileToken: s.profileToken, zoom: v, onlySendZoom: true }, cb));
  }

  async focus(direction: FocusDirection, speed: number) {
    if (direction === "auto") return this.imaging("autofocus", `<Focus xmlns="http://www.onvif.org/ver10/schema"><AutoFocusMode>AUTO</AutoFocusMode></Focus>`);
    const v = round(speed / 24) * (direction === "far" ? 1 : -1);
    await this.call("focus", (cam, cb, s) => cam.imagingMove({ token: s.sourceToken, continuous: { speed: v } }, cb));
  }

  async stop(what: StopTarget) {
    if (what === "focus") return void (await this.call("focus stop", (cam, cb, s) => cam.imagingStop({ token: s.sourceToken }, cb)));
    await this.call("stop", (cam, cb, s) => cam.stop(what === "move" ? { profileToken: s.profileToken, panTilt: true } : { profileToken: s.profileToken, zoom: true }, cb));
  }

  async savePreset(number: number, name: string) {
    await this.call("presets", (cam, cb, s) => cam.setPreset({ profileToken: s.profileToken, presetName: escapeXml(name || `Preset ${number}`), presetToken: String(number) }, cb));
  }

  async recallPreset(number: number) {
    await this.call("presets", (cam, cb, s) => cam.gotoPreset({ profileToken: s.profileToken, preset: String(number) }, cb));
  }

  async deletePreset(number: number) {
    await this.call("presets", (cam, cb, s) => cam.removePreset({ profileToken: s.profileToken, presetToken: String(number) }, cb));
  }

  async setExposure(setting: ExposureSetting, value: number | "auto" | "manual", state: ExposureState) {
    const tt = `xmlns="http://www.onvif.org/ver10/schema"`;
    if (setting === "mode") return this.imaging("exposure mode", `<Exposure ${tt}><Mode>${value === "manual" ? "MANUAL" : "AUTO"}</Mode></Exposure>`);
    const n = value as number;
    if (setting === "shutter") return this.imaging("exposure time", `<Exposure ${tt}><Mode>MANUAL</Mode><ExposureTime>${SHUTTER_MICROSECONDS(n)}</ExposureTime></Exposure>`);
    // ONVIF iris is attenuation in dB: 0 is fully open; −22 dB is taken as closed.
    if (setting === "iris") return this.imaging("iris", `<Exposure ${tt}><Mode>MANUAL</Mode><Iris>${round(((clamp(n, 0, 100) - 100) / 100) * 22)}</Iris></Exposure>`);
    if (setting === "gain") return this.imaging("gain", `<Exposure ${tt}><Mode>MANUAL</Mode><Gain>${n}</Gain></Exposure>`);
    if (setting === "saturation") return this.imaging("saturation", `<ColorSaturation ${tt}>${n}</ColorSaturation>`);
    const gains = whiteBalanceGains(state);
    await this.imaging("white balance", `<WhiteBalance ${tt}><Mode>MANUAL</Mode><CrGain>${gains.red}</CrGain><CbGain>${gains.blue}</CbGain></WhiteBalance>`);
  }

  close() {
    this.agent.destroy();
    this.session = undefined;
  }

  private imaging(what: string, settings: string) {
    return this.call(what, (cam, cb, s) =>
      cam._request(
        {
          service: "imaging",
          body:
            cam._envelopeHeader() +
            `<SetImagingSettings xmlns="http://www.onvif.org/ver20/imaging/wsdl"><VideoSourceToken>${escapeXml(s.sourceToken)}</VideoSourceToken>` +
            `<ImagingSettings>${settings}</ImagingSettings><ForcePersistence>false</ForcePersistence></SetImagingSettings>` +
            cam._envelopeFooter(),
        },
        cb,
      ),
    ).then(() => undefined);
  }

  private connect() {
    this.session ??= withDeadline(this.open(), CAMERA_TIMEOUT_MS, () => unreachable(this.target, "no answer within 4 s")).catch((error: unknown) => {
      this.session = undefined;
      throw this.translate(error, "ONVIF");
    });
    return this.session;
  }

  private async open() {
    const cam = await openOnvifCam(this.target, this.agent);
    if (!cam.uri?.ptz) throw unsupported(this.target, "PTZ control (no PTZ service)");
    const profiles = ((await onvifStep((cb) => cam.getProfiles(cb))) ?? []) as Profile[];
    const profile = profiles.find((p) => p.PTZConfiguration) ?? profiles[0];
    if (!profile?.$?.token) throw unsupported(this.target, "PTZ control (no media profile)");
    return { cam, profileToken: String(profile.$.token), sourceToken: String(profile.videoSourceConfiguration?.sourceToken ?? "") };
  }

  private async call(what: string, run: (cam: OnvifCam, cb: Callback, session: { profileToken: string; sourceToken: string }) => void): Promise<unknown> {
    const session = await this.connect();
    const result = new Promise<unknown>((resolve, reject) => {
      try {
        run(session.cam, (error, value) => (error ? reject(error) : resolve(value)), session);
      } catch (error) {
        reject(error);
      }
    });
    try {
      return await withDeadline(result, CAMERA_TIMEOUT_MS, () => unreachable(this.target, "no answer within 4 s"));
    } catch (error) {
      const translated = this.translate(error, what);
      // A dead connection or refused credentials invalidate the session; the next command sets it up afresh.
      if (translated.kind === "unreachable" || translated.kind === "auth") this.session = undefined;
      throw translated;
    }
  }

  private translate(error: unknown, what: string): PtzError {
    return translateOnvifError(error, this.target, what);
  }
}

/** One callback-style call of the package as a promise. */
export const onvifStep = (run: (cb: Callback) => void) => new Promise<unknown>((resolve, reject) => run((error, result) => (error ? reject(error) : resolve(result))));

/**
 * A session with the device at the checked address: device time (for the digest's timestamp), then capabilities.
 * Shared by PTZ control and stream discovery (server/cameras/onvif-media.ts).
 */
export async function openOnvifCam(target: CameraTarget, agent: Agent): Promise<OnvifCam> {
  const cam = new onvif.Cam({
    hostname: target.address,
    port: target.port,
    username: target.username,
    password: target.password,
    timeout: CAMERA_TIMEOUT_MS,
    agent,
    autoconnect: false,
    // Service addresses from the camera's answers are ignored: only the checked address and port are contacted,
    // so a device cannot point the relay at another host (cloud metadata, a database on the LAN).
    preserveAddress: true,
  }) as unknown as OnvifCam;
  await onvifStep((cb) => cam.getSystemDateAndTime(cb));
  await onvifStep((cb) => cam.getCapabilities(cb));
  return cam;
}

/** The package's failures as the operator-facing PtzError kinds (unreachable, auth, unsupported, camera). */
export function translateOnvifError(error: unknown, target: CameraTarget, what: string): PtzError {
  if (error instanceof PtzError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code || /network timeout|socket hang up|ECONN|EHOST|ENETUNREACH|ETIMEDOUT/i.test(message)) return unreachable(target, code ?? "no answer");
  if (/not ?authori[sz]ed|authentication failed|401/i.test(message)) return authFailed(target);
  if (/ActionNotSupported|not ?supported|not implemented|NoImagingForSource|NoPTZProfile|NoSuchService/i.test(message)) return unsupported(target, what);
  if (/Wrong ONVIF SOAP response/i.test(message)) return new PtzError("camera", `The device at ${target.ip}:${target.port} does not speak ONVIF`);
  return new PtzError("camera", `The camera at ${target.ip} refused ${what}: ${message.replace(/^ONVIF SOAP Fault:\s*/, "").slice(0, 200)}`);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!);
}
