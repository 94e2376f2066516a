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
  /**
   * The base64 text these bytes arrived as, when the HTTP edge had it as bytes (an AI route's frame, checked by
   * decoding it): the Moondream wire edge copies it into the provider's body rather than encoding the bytes again
   * (a 1080p frame's encode costs about a tenth of a millisecond). Nothing else reads it.
   */
  arrivedAs?: Buffer | undefined;
}

/** A frame sent in a request, as decoded at the HTTP edge. */
export function uploadedFrame(bytes: Buffer, type: string, arrivedAs?: Buffer): Frame {
  return { bytes, type, width: null, height: null, capturedAt: new Date(), source: "upload", arrivedAs };
}

/** A camera's JPEG, taken by the server (a snapshot of an IP camera's stream). */
export function cameraFrame(picture: { jpeg: Buffer; width: number; height: number }): Frame {
  return { bytes: picture.jpeg, type: "image/jpeg", width: picture.width, height: picture.height, capturedAt: new Date(), source: "camera" };
}
