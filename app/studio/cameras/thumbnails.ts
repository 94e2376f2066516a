// A camera card's thumbnail: from a live stream (played in a detached <video> until it has a frame, the only
// DOM element the studio engine makes) or from an IP camera's snapshot, grabbed small.
import { grabFrame, JPEG_QUALITY } from "../frames/frame-grabber";

const THUMBNAIL_TRIES = 10;
const THUMBNAIL_RETRY_MS = 300;
const THUMBNAIL_LONG_EDGE = 320;

/** A small JPEG data URL of the stream's picture (up to 10 tries, 300 ms apart); null when none came. */
export async function takeThumbnail(stream: MediaStream): Promise<string | null> {
  const video = document.createElement("video");
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  try {
    await video.play().catch(() => {});
    for (let attempt = 0; attempt < THUMBNAIL_TRIES; attempt++) {
      if (video.videoWidth > 0 && video.readyState >= 2) {
        const frame = await grabFrame(video, { quality: JPEG_QUALITY.thumbnail, maxLongEdge: THUMBNAIL_LONG_EDGE });
        return frame.dataUrl;
      }
      await new Promise((resolve) => setTimeout(resolve, THUMBNAIL_RETRY_MS));
    }
    return null;
  } finally {
    video.srcObject = null;
  }
}

/** A small JPEG data URL of an encoded picture (an IP camera's snapshot). */
export async function takeImageThumbnail(blob: Blob): Promise<string> {
  const url = URL.createObjectURL(blob);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return (await grabFrame(image, { quality: JPEG_QUALITY.thumbnail, maxLongEdge: THUMBNAIL_LONG_EDGE })).dataUrl;
  } finally {
    URL.revokeObjectURL(url);
  }
}
