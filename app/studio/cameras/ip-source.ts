// An IP camera as a studio source: its live view as the preview's media (so overlays and AI loops read the
// <video> exactly as for a webcam), its status in the roster's words, and full-resolution captures taken and saved
// by the server from the main stream.
import { camerasApi } from "../../lib/api/cameras";
import type { Camera } from "../../schemas/cameras";
import { IpLivePlayer, type LiveStatus } from "./ip-live";
import { takeImageThumbnail } from "./thumbnails";

/** What a source plays in the preview <video>: `attach` starts it there and returns how to stop. */
export interface SourceMedia {
  attach(video: HTMLVideoElement): () => void;
}

/** A webcam's stream as preview media. */
export function streamMedia(stream: MediaStream): SourceMedia {
  return {
    attach(video) {
      video.srcObject = stream;
      video.play().catch((error: unknown) => console.warn("Video play failed", error));
      return () => {
        if (video.srcObject === stream) video.srcObject = null;
      };
    },
  };
}

/** An IP camera's live view as preview media: a socket and MediaSource only while a <video> shows it. */
export function ipLiveMedia(cameraId: string, onStatus: (status: LiveStatus) => void): SourceMedia {
  return {
    attach(video) {
      const player = new IpLivePlayer(cameraId, video, onStatus);
      onStatus(player.current);
      return () => player.dispose();
    },
  };
}

export function isIpCamera(camera: Pick<Camera, "source"> | null | undefined): boolean {
  return camera?.source === "ip";
}

/** The live view's state as the roster's source status (the card and preview show `error` as the reason). */
export function liveSourcePatch(status: LiveStatus): { status: "connecting" | "live" | "offline"; error: string | null; live: LiveStatus } {
  if (status.state === "online") return { status: "live", error: null, live: status };
  if (status.state === "connecting") return { status: "connecting", error: null, live: status };
  return { status: "offline", error: status.reason ?? "offline", live: status };
}

/**
 * A capture of an IP camera: the server takes the main stream's picture at full resolution and saves it
 * (POST /api/cameras/{id}/capture), so the picture never comes to the browser and goes back.
 */
export interface ServerCapture {
  serverCapture: string;
}

export const serverCapture = (cameraId: string): ServerCapture => ({ serverCapture: cameraId });
export const isServerCapture = (frame: object): frame is ServerCapture => "serverCapture" in frame;

/** A card thumbnail from a snapshot (the camera's own picture, no preview needed). */
export async function snapshotThumbnail(cameraId: string): Promise<string> {
  return takeImageThumbnail(await camerasApi.snapshot(cameraId));
}
