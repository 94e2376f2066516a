// Cameras and their PTZ presets.
import { z } from "zod";
import { dateTimeSchema, imageDataUrlSchema, requiredText, uuidSchema } from "./common";

export const CAMERA_NAME_MAX = 100;
export const cameraNameSchema = requiredText("Name", CAMERA_NAME_MAX);

export const cameraCreateSchema = z.object({
  name: cameraNameSchema,
  model: z.string().trim().max(100, "Model must be at most 100 characters").default(""),
  status: z.string().trim().max(20, "Status must be at most 20 characters").default("offline"),
  deviceId: z.string().max(512, "deviceId must be at most 512 characters").nullish(),
  deviceLabel: z
    .string()
    .max(255, "deviceLabel must be at most 255 characters")
    .nullish()
    .describe("the webcam's label where it was added; another browser finds the camera by it"),
  thumbnail: imageDataUrlSchema.nullish(),
});
export type CameraCreateInput = z.infer<typeof cameraCreateSchema>;

/** PUT /api/cameras/:id takes a new name or a new thumbnail. */
export const cameraUpdateSchema = z
  .object({ name: cameraNameSchema.optional(), thumbnail: imageDataUrlSchema.optional() })
  .refine((value) => value.name !== undefined || value.thumbnail !== undefined, { message: "Send a name or a thumbnail", path: ["name"] });
export type CameraUpdateInput = z.infer<typeof cameraUpdateSchema>;

export const cameraVideoSettingsSchema = z.object({
  videoWidth: z.number({ error: "videoWidth must be a number" }).int("videoWidth must be a whole number").min(1).max(8192),
  videoHeight: z.number({ error: "videoHeight must be a number" }).int("videoHeight must be a whole number").min(1).max(8192),
  frameRate: z.number({ error: "frameRate must be a number" }).min(1).max(240),
});
export type CameraVideoSettings = z.infer<typeof cameraVideoSettingsSchema>;

/** A camera login field: blank means the factory default "admin", as on the PTZ form. */
export const blankToAdmin = z
  .string()
  .max(128, "must be at most 128 characters")
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? "admin" : value));

/** Where an IP camera is: a stream URL (credentials may be inside it), or a host from which the server discovers the streams. */
const byStreamUrl = z.object({
  streamUrl: z
    .string({ error: "Please enter a stream URL" })
    .trim()
    .min(1, "Please enter a stream URL")
    .max(2048, "The stream URL is too long")
    .describe("rtsp://, rtsps://, or an http(s):// MJPEG or JPEG snapshot URL; a user:password@ inside is moved into the encrypted credentials"),
});
const byHost = z.object({
  host: z
    .string({ error: "Please enter the camera's address" })
    .trim()
    .min(1, "Please enter the camera's address")
    .max(260, "The address is too long")
    .refine((host) => /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(host), "Enter an IP address or host name, optionally with :port")
    .describe("IP address or host name, with :port when ONVIF (or RTSP) is not on its usual port"),
  username: blankToAdmin,
  password: blankToAdmin,
});
export const ipCameraAddressSchema = z.union([byStreamUrl, byHost]);

export const ipCameraCreateSchema = z.union([byStreamUrl.extend({ name: cameraNameSchema }), byHost.extend({ name: cameraNameSchema })]);
export type IpCameraCreateInput = z.output<typeof ipCameraCreateSchema>;
/** A new login only: the stored streams are probed again with it (for a camera added by URL, whose path the card does not show). */
const byLogin = z.object({
  username: blankToAdmin,
  password: z.string({ error: "Please enter the password" }).min(1, "Please enter the password").max(128, "must be at most 128 characters"),
});
/** PUT /api/cameras/:id/ip: a new address (with its login), or a new login for the stored address; the camera is probed again. */
export const ipCameraUpdateSchema = z.union([byStreamUrl, byHost, byLogin]);
export type IpCameraAddress = z.output<typeof ipCameraAddressSchema>;
export type IpCameraUpdateInput = z.output<typeof ipCameraUpdateSchema>;

/** Why an IP camera is offline, in the card's words. */
export const CAMERA_OFFLINE_REASONS = ["unreachable", "authentication failed", "stream ended", "unsupported codec", "no ffmpeg"] as const;
export type CameraOfflineReason = (typeof CAMERA_OFFLINE_REASONS)[number];

/**
 * Whether the server pulls an IP camera now: streaming (frames arrive), connecting, idle (nobody watches it and no
 * monitor holds it: not streaming now, nothing wrong) or failing (a viewer or monitor wants it and the last pull
 * failed, `statusReason` says why).
 */
export const IP_STREAM_STATES = ["streaming", "connecting", "idle", "failing"] as const;
export type IpStreamState = (typeof IP_STREAM_STATES)[number];

/** What the browser may know of an IP camera: its host, never its URLs' credentials or password. */
export const ipCameraInfoSchema = z.object({
  host: z.string().describe("host or host:port as entered"),
  path: z
    .string()
    .describe("the main stream's path (and channel parameters), e.g. /1 or /cam/realmonitor?channel=2: tells apart cameras on one host:port; login parameters left out"),
  streamState: z.enum(IP_STREAM_STATES).describe("streaming, connecting, idle (not streaming now: no viewer or monitor) or failing (statusReason says why)"),
  codec: z.string().nullable().describe("the stream's codec as probed (h264, hevc, mjpeg...)"),
  transcoded: z.boolean().describe("true when the server transcodes to H.264 because the browser cannot play the codec"),
  hasSubStream: z.boolean().describe("viewing uses the sub-stream, captures the main stream"),
  ptzProtocol: z.enum(["onvif", "visca", "http-cgi"]).nullable().describe("PTZ control found on the camera; the joystick drives it when the camera is selected"),
  ptzChecking: z.boolean().describe("PTZ is still being looked for (just after the camera was added or moved); ptzProtocol is null meanwhile"),
});
export type IpCameraInfo = z.infer<typeof ipCameraInfoSchema>;

export const cameraSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  model: z.string(),
  status: z.string().describe("for an IP camera: online while frames arrive, connecting, or offline (with statusReason)"),
  statusReason: z.string().nullable().describe("why an IP camera is offline: unreachable, authentication failed, stream ended, unsupported codec, no ffmpeg"),
  source: z.enum(["device", "ip"]).describe("device: a browser webcam or static photo; ip: a network camera pulled by the server"),
  ip: ipCameraInfoSchema.nullable(),
  deviceId: z.string().nullable(),
  deviceLabel: z.string().nullable(),
  thumbnailUrl: z.string().nullable().describe("GET this URL for the 320 px thumbnail JPEG; null when none was saved"),
  imageUrl: z.string().nullable().describe("GET this URL for the full picture sent as the thumbnail (a static photo's source); null when none"),
  videoWidth: z.number().int().nullable(),
  videoHeight: z.number().int().nullable(),
  frameRate: z.number().nullable(),
  createdAt: dateTimeSchema,
});
export type Camera = z.infer<typeof cameraSchema>;

/** PTZOptics reserves these preset numbers for menu functions; never store a user preset there. */
export const RESERVED_PRESET_NUMBERS = [90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 150, 151];

export const presetPositionSchema = z.object({
  pan: z.number().min(-1).max(1),
  tilt: z.number().min(-1).max(1),
  zoom: z.number().min(0).max(1),
});

export const presetCreateSchema = z
  .object({
    cameraId: uuidSchema,
    name: requiredText("Name", 100),
    number: z
      .number({ error: "number must be a number" })
      .int("number must be a whole number")
      .min(0, "number must be between 0 and 254")
      .max(254, "number must be between 0 and 254")
      .refine((n) => !RESERVED_PRESET_NUMBERS.includes(n), "Preset numbers 90–99, 150 and 151 are reserved by the camera")
      .optional(),
    position: presetPositionSchema.optional(),
  })
  .refine((value) => value.number !== undefined || value.position !== undefined, { message: "Send a preset number or a position", path: ["number"] });
export type PresetCreateInput = z.infer<typeof presetCreateSchema>;

export const presetListQuerySchema = z.object({ cameraId: uuidSchema.optional() });

export const presetSchema = z.object({
  id: uuidSchema,
  cameraId: uuidSchema,
  name: z.string(),
  number: z.number().int().nullable(),
  position: presetPositionSchema.nullable(),
  createdAt: dateTimeSchema,
});
export type Preset = z.infer<typeof presetSchema>;
