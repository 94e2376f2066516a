// From what a user typed to an IP camera's streams: a stream URL is vetted and probed; a host is asked over ONVIF
// (GetProfiles, GetStreamUri, GetSnapshotUri: main = largest profile, sub = smallest), and in parallel the
// PTZOptics/common RTSP conventions (/1 /2, /stream1 /stream2 on the typed port and 554) are probed. PTZ is found
// the way PTZ connect finds it, after the camera is added (server/cameras/ptz-check.ts): its probes wait out silent
// ports, which must not hold up the add. Every URL — typed or the camera's answer — passes the address policy first.
import type { IpCameraAddress } from "#app/schemas/cameras";
import type { PtzProtocol } from "#app/schemas/ptz";
import { within } from "../deadline";
import { logger } from "../logger";
import { cameraTargetPolicy, type CameraTargetPolicy } from "../net/camera-target";
import { PtzError } from "../ptz/driver";
import type { PtzService } from "../ptz/service";
import { CameraAddressError, pinTarget, splitHostPort, urlFor, vetUrlForm, type VettedUrl } from "./camera-url";
import { probeHttp } from "./http-probe";
import { onvifStreams, type OnvifStream } from "./onvif-media";
import { probeRtsp, type ProbeOutcome } from "./rtsp-probe";
import type { CameraCredentials } from "./source";

/** Budget for the camera's answers; with the DB write the API answers within 5 s. */
export const PROBE_MS = 4000;
/** How long ONVIF may still take once the RTSP conventions found a stream. */
const ANSWER_GRACE_MS = 1500;

export interface DiscoveredCamera {
  /** host or host:port as the card shows it. */
  host: string;
  streamUrl: string;
  subStreamUrl: string | null;
  snapshotUrl: string | null;
  codec: string | null;
  credentials: CameraCredentials | null;
  model: string | null;
  /** PTZ as stored; a camera just discovered has none yet (see ptzSearch). */
  ptz: { protocol: PtzProtocol; port: number } | null;
  /** PTZ is to be looked for after the add, on the camera's host at this port (null: each protocol's usual one). */
  ptzSearch: { port: number | null } | null;
}

/** Finds the camera's streams and codec; throws CameraAddressError (refused, auth, unreachable, unsupported). */
export async function discoverCamera(input: IpCameraAddress, policy: CameraTargetPolicy = cameraTargetPolicy()): Promise<DiscoveredCamera> {
  return "streamUrl" in input ? byStreamUrl(input.streamUrl, policy) : byHost(input.host, { username: input.username, password: input.password }, policy);
}

/** The stored camera with a new login: its main stream probed again with it (codec refreshed). */
export async function reprobeLogin(camera: DiscoveredCamera, credentials: CameraCredentials, policy: CameraTargetPolicy = cameraTargetPolicy()): Promise<DiscoveredCamera> {
  const vetted = vetUrlForm(camera.streamUrl);
  const address = await pinTarget(vetted.hostname, vetted.port, policy);
  const codec = expectOk(await probe(vetted, address, credentials, AbortSignal.timeout(PROBE_MS)), vetted.url.host);
  return { ...camera, codec, credentials };
}

async function byStreamUrl(streamUrl: string, policy: CameraTargetPolicy): Promise<DiscoveredCamera> {
  const vetted = vetUrlForm(streamUrl);
  const address = await pinTarget(vetted.hostname, vetted.port, policy);
  const signal = AbortSignal.timeout(PROBE_MS);
  const codec = expectOk(await probe(vetted, address, vetted.credentials, signal), vetted.url.host);
  const isSnapshot = codec === "jpeg";
  return {
    host: vetted.url.host,
    streamUrl: vetted.url.href,
    subStreamUrl: null,
    snapshotUrl: isSnapshot ? vetted.url.href : null,
    codec,
    credentials: vetted.credentials,
    model: null,
    ptz: null,
    ptzSearch: { port: null },
  };
}

async function byHost(host: string, credentials: CameraCredentials, policy: CameraTargetPolicy): Promise<DiscoveredCamera> {
  const { hostname, port } = splitHostPort(host);
  const onvifPort = port ?? 80;
  const address = await pinTarget(hostname, onvifPort, policy);
  const signal = AbortSignal.timeout(PROBE_MS);
  const asking = within(onvifStreams({ address, ip: hostname, port: onvifPort, ...credentials }), PROBE_MS).catch((error: unknown) => error as Error);
  const conventions = await probeConventions(hostname, port, credentials, policy, signal);
  // With a stream already found, a device that stays silent at the ONVIF port (say, the typed port is the RTSP
  // one) should not cost the full camera deadline: a camera on the LAN answers ONVIF in well under this.
  const onvif = await within(asking, conventions.main ? ANSWER_GRACE_MS : PROBE_MS);
  const ptzSearch = { port };
  const failures: Error[] = [];
  if (onvif instanceof Error) failures.push(onvif);
  else if (onvif && onvif.streams.length > 0) {
    try {
      const found = await fromOnvif(onvif.streams, credentials, policy, signal);
      return { host, ...found, credentials, model: onvif.model ?? null, ptz: null, ptzSearch };
    } catch (error) {
      if (!(error instanceof CameraAddressError) || error.kind === "refused") throw error;
      failures.push(error);
    }
  }
  if (conventions.main) {
    return {
      host,
      streamUrl: conventions.main.url,
      subStreamUrl: conventions.sub?.url ?? null,
      snapshotUrl: null,
      codec: conventions.main.codec,
      credentials,
      model: null,
      ptz: null,
      ptzSearch,
    };
  }
  const authFailed = conventions.auth || failures.some((f) => (f instanceof PtzError || f instanceof CameraAddressError) && f.kind === "auth");
  if (authFailed) throw new CameraAddressError("auth", `The camera at ${host} refused the username or password`);
  throw new CameraAddressError("unreachable", `No camera answered at ${host} (tried ONVIF and RTSP /1, /2, /stream1, /stream2): check its address, port and network`);
}

/** Main = the largest profile, sub = the smallest; each URI vetted and pinned before the main one is probed. */
async function fromOnvif(streams: OnvifStream[], credentials: CameraCredentials, policy: CameraTargetPolicy, signal: AbortSignal) {
  const sorted = [...streams].sort((a, b) => b.width * b.height - a.width * a.height);
  const main = sorted[0]!;
  const sub = sorted.length > 1 && sorted.at(-1)!.streamUri !== main.streamUri ? sorted.at(-1)! : null;
  const vet = async (uri: string) => {
    try {
      const vetted = vetUrlForm(uri);
      return { vetted, address: await pinTarget(vetted.hostname, vetted.port, policy) };
    } catch (error) {
      if (error instanceof CameraAddressError && error.kind === "refused")
        throw new CameraAddressError("refused", `The camera's ONVIF answer points at an address this server does not connect to: ${error.message}`);
      throw error;
    }
  };
  const mainTarget = await vet(main.streamUri);
  const subTarget = sub ? await vet(sub.streamUri) : null;
  const snapshotUri = main.snapshotUri ?? sub?.snapshotUri ?? null;
  const snapshotTarget = snapshotUri ? await vet(snapshotUri) : null;
  if (snapshotTarget && !/^https?:$/.test(snapshotTarget.vetted.url.protocol)) throw new CameraAddressError("refused", "The camera's ONVIF snapshot address is not an http(s) URL");
  const outcome = await probe(mainTarget.vetted, mainTarget.address, mainTarget.vetted.credentials ?? credentials, signal);
  const codec = expectOk(outcome, mainTarget.vetted.url.host) ?? (main.encoding ? main.encoding.toLowerCase().replace("h265", "hevc") : null);
  return { streamUrl: mainTarget.vetted.url.href, subStreamUrl: subTarget?.vetted.url.href ?? null, snapshotUrl: snapshotTarget?.vetted.url.href ?? null, codec };
}

interface Found {
  url: string;
  codec: string | null;
}

/** PTZOptics: rtsp://host:554/1 main, /2 sub; many others: /stream1, /stream2. The typed port is tried too. */
export function conventionUrls(hostname: string, port: number | null): { port: number; main: string; sub: string }[] {
  const ports = [...new Set([port, 554].filter((p): p is number => p !== null))];
  return ports.flatMap((p) => [
    { port: p, main: urlFor("rtsp", hostname, p, "/1"), sub: urlFor("rtsp", hostname, p, "/2") },
    { port: p, main: urlFor("rtsp", hostname, p, "/stream1"), sub: urlFor("rtsp", hostname, p, "/stream2") },
  ]);
}

async function probeConventions(hostname: string, port: number | null, credentials: CameraCredentials, policy: CameraTargetPolicy, signal: AbortSignal) {
  const candidates = conventionUrls(hostname, port);
  let auth = false;
  const results = await Promise.all(
    candidates.map(async (candidate) => {
      let address: string;
      try {
        address = await pinTarget(hostname, candidate.port, policy);
      } catch {
        return null; // a port the policy refuses is simply not tried
      }
      const check = async (url: string): Promise<Found | null> => {
        const outcome = await probeRtsp(new URL(url), address, candidate.port, credentials, signal);
        if (outcome.kind === "auth") auth = true;
        return outcome.kind === "ok" ? { url, codec: outcome.codec } : null;
      };
      const [main, sub] = await Promise.all([check(candidate.main), check(candidate.sub)]);
      return main ? { main, sub } : null;
    }),
  );
  const found = results.find((r) => r !== null);
  return { main: found?.main ?? null, sub: found?.sub ?? null, auth };
}

function probe(vetted: VettedUrl, address: string, credentials: CameraCredentials | null, signal: AbortSignal): Promise<ProbeOutcome> {
  const isRtsp = vetted.url.protocol === "rtsp:" || vetted.url.protocol === "rtsps:";
  return isRtsp ? probeRtsp(vetted.url, address, vetted.port, credentials, signal) : probeHttp(vetted.url, address, vetted.port, credentials, signal);
}

function expectOk(outcome: ProbeOutcome, host: string): string | null {
  if (outcome.kind === "ok") return outcome.codec;
  if (outcome.kind === "auth") throw new CameraAddressError("auth", `The camera at ${host} refused the username or password`);
  if (outcome.kind === "missing") {
    throw new CameraAddressError(
      "unsupported",
      outcome.status === 415 ? `${host} answered, but not with video or a JPEG picture` : `The camera at ${host} has no stream at this address (it answered ${outcome.status})`,
    );
  }
  throw new CameraAddressError("unreachable", `The camera at ${host} is unreachable: check its address, port and network`);
}

/**
 * How long the background PTZ check (ptz-check.ts) waits for PTZ connect. Not the add's 4 s: nobody waits on it, and
 * an ONVIF camera answers in two steps (its session, then its identity), each bounded by the drivers at 4 s
 * (CAMERA_TIMEOUT_MS), so a slow or busy camera that takes more than 4 s in all still has its PTZ found.
 */
const PTZ_CHECK_MS = 10_000;

/** PTZ the way PTZ connect finds it (ONVIF, HTTP-CGI, VISCA at once); none when nothing answers in time. */
export async function findPtz(ptz: PtzService, hostname: string, credentials: CameraCredentials | null, port: number | null) {
  try {
    const info = await within(
      ptz.connect({ ip: hostname, username: credentials?.username ?? "admin", password: credentials?.password ?? "admin", ...(port ? { port } : {}) }),
      PTZ_CHECK_MS,
    );
    if (!info) logger.info({ camera: hostname, port }, `PTZ check found no PTZ: no answer within ${PTZ_CHECK_MS / 1000} s`);
    return info && { protocol: info.protocol, port: info.port, model: info.model };
  } catch (error) {
    // Nothing found is an answer, but the operator may want to know why (a wrong port, a refused login).
    logger.info({ camera: hostname, port, err: error instanceof Error ? error.message : String(error) }, "PTZ check found no PTZ");
    return null;
  }
}
