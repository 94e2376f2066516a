// A frame: one picture as bytes, the one shape image data has inside the server. Base64 and data URLs are wire
// formats: the HTTP edge decodes them once (server/http/frame-input.ts) and the Moondream client encodes the bytes
// again only when it writes a provider body (server/vision/inline-image.ts). Everything between (photos, vision,
// counting, cameras, the monitor runner) takes and passes a Frame. See docs/decisions/0011-frames-as-bytes.md.

/** Where a frame came from: sent by a browser or an API client, or taken by the server from an IP camera's stream. */
export type FrameSource = "upload" | "camera";

export interface Frame {
  bytes: Buffer;
  /** The MIME type as declared (a data URL's header, or a camera's JPEG); what the bytes are is checked by their readers. */
  type: string;
  /** The picture's size when already known (a camera's snapshot), else null until a reader looks at the bytes. */
  width: number | null;
  height: number | null;
  capturedAt: Date;
  source: FrameSource;
}

/** A frame sent in a request, as decoded at the HTTP edge. */
export function uploadedFrame(bytes: Buffer, type: string): Frame {
  return { bytes, type, width: null, height: null, capturedAt: new Date(), source: "upload" };
}

/** A camera's JPEG, taken by the server (a snapshot of an IP camera's stream). */
export function cameraFrame(picture: { jpeg: Buffer; width: number; height: number }): Frame {
  return { bytes: picture.jpeg, type: "image/jpeg", width: picture.width, height: picture.height, capturedAt: new Date(), source: "camera" };
}
