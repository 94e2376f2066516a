// ONVIF stream discovery through the app's ONVIF client (the `onvif` package, set up as PTZ control sets it up):
// GetProfiles, then GetStreamUri (RTSP) and GetSnapshotUri per profile, and the device's model.
// The URIs are the camera's word only: discovery vets each through the camera address policy before use.
import { Agent } from "node:http";
import type { CameraTarget } from "../ptz/driver";
import { onvifStep, openOnvifCam, translateOnvifError } from "../ptz/onvif";

export interface OnvifStream {
  token: string;
  width: number;
  height: number;
  encoding: string | null;
  streamUri: string;
  snapshotUri: string | null;
}

interface MediaProfile {
  $?: { token?: string };
  videoEncoderConfiguration?: { encoding?: unknown; resolution?: { width?: unknown; height?: unknown } };
}

const uriOf = (answer: unknown): string | null => {
  const uri = (answer as { uri?: unknown } | null | undefined)?.uri;
  return typeof uri === "string" && uri ? uri : null;
};

/** The device's video profiles with their stream and snapshot URIs, and its model. Throws PtzError (unreachable, auth, camera...). */
export async function onvifStreams(target: CameraTarget): Promise<{ streams: OnvifStream[]; model: string | null }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const cam = await openOnvifCam(target, agent);
    const profiles = ((await onvifStep((cb) => cam.getProfiles(cb))) ?? []) as MediaProfile[];
    const streams: OnvifStream[] = [];
    for (const profile of profiles) {
      const token = profile.$?.token;
      if (!token || !profile.videoEncoderConfiguration) continue;
      const streamUri = uriOf(await onvifStep((cb) => cam.getStreamUri({ protocol: "RTSP", profileToken: token }, cb)));
      if (!streamUri) continue;
      // Not every camera has snapshots: a refusal here leaves the profile without one.
      const snapshotUri = uriOf(await onvifStep((cb) => cam.getSnapshotUri({ profileToken: token }, cb)).catch(() => null));
      const encoder = profile.videoEncoderConfiguration;
      streams.push({
        token: String(token),
        width: Number(encoder.resolution?.width) || 0,
        height: Number(encoder.resolution?.height) || 0,
        encoding: typeof encoder.encoding === "string" ? encoder.encoding : null,
        streamUri,
        snapshotUri,
      });
    }
    const info = (await onvifStep((cb) => cam.getDeviceInformation(cb)).catch(() => null)) as { manufacturer?: unknown; model?: unknown } | null;
    const model = [info?.manufacturer, info?.model].filter((part) => typeof part === "string" || typeof part === "number").join(" ");
    return { streams, model: model || null };
  } catch (error) {
    throw translateOnvifError(error, target, "media profiles");
  } finally {
    agent.destroy();
  }
}
