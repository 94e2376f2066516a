// PTZ camera control through the server relay: the connection, moves, lens, exposure and camera preset slots.
import { z } from "zod";
import { blankToAdmin, RESERVED_PRESET_NUMBERS } from "./cameras";
import { uuidSchema } from "./common";

export const PTZ_PROTOCOLS = ["onvif", "visca", "http-cgi"] as const;
export type PtzProtocol = (typeof PTZ_PROTOCOLS)[number];

export const PTZ_DIRECTIONS = ["up", "down", "left", "right", "up-left", "up-right", "down-left", "down-right", "home"] as const;
export type PtzDirection = (typeof PTZ_DIRECTIONS)[number];

/** Speed sliders and API speeds are 1–24 (VISCA's pan range); each driver maps them to its own scale. */
export const PTZ_SPEED_MIN = 1;
export const PTZ_SPEED_MAX = 24;
export const PTZ_DEFAULT_SPEEDS = { panTilt: 10, zoom: 8, focus: 8 } as const;
/** Call defaults of the spec when a caller sends no speed. */
export const PTZ_CALL_SPEEDS = { move: 12, zoom: 4, focus: 4 } as const;

/** Manual exposure choices (studio.md §9): shutter as the denominator of 1/x seconds. */
export const SHUTTER_SPEEDS = [30, 60, 100, 120, 250, 500, 1000] as const;
export const EXPOSURE_RANGES = {
  iris: { min: 0, max: 100 },
  gain: { min: 0, max: 24 },
  temperature: { min: 0, max: 100 },
  tint: { min: -50, max: 50 },
  saturation: { min: 0, max: 100 },
} as const;

export const ptzConnectionSchema = z.object({
  ip: z
    .string({ error: "Please enter an IP address" })
    .trim()
    .min(1, "Please enter an IP address")
    .max(253, "The address is too long")
    .refine((ip) => ip === "" || /^[A-Za-z0-9.:-]+$/.test(ip), "Enter an IP address or host name"),
  username: blankToAdmin,
  password: blankToAdmin,
  protocol: z.enum(PTZ_PROTOCOLS, { error: "protocol must be onvif, visca or http-cgi" }).optional(),
  port: z.number({ error: "port must be a number" }).int("port must be a whole number").min(1, "port must be 1–65535").max(65535, "port must be 1–65535").optional(),
});
export type PtzConnectionInput = z.input<typeof ptzConnectionSchema>;
export type PtzConnection = z.output<typeof ptzConnectionSchema>;

/** An IP camera added to Framewise: the server uses its stored host, PTZ protocol, port and credentials (the browser never holds them). */
export const ptzCameraRefSchema = z.object({ cameraId: uuidSchema.describe("one of the user's IP cameras with PTZ control") });
/** What every PTZ command's `connection` may be: an address with credentials, or {cameraId}. */
export const ptzTargetSchema = z.union([ptzCameraRefSchema, ptzConnectionSchema]);
export type PtzTargetInput = z.input<typeof ptzTargetSchema>;
export type PtzTarget = z.output<typeof ptzTargetSchema>;

const speed = (fallback: number) =>
  z
    .number({ error: "speed must be a number" })
    .int("speed must be a whole number")
    .min(PTZ_SPEED_MIN, `speed must be between ${PTZ_SPEED_MIN} and ${PTZ_SPEED_MAX}`)
    .max(PTZ_SPEED_MAX, `speed must be between ${PTZ_SPEED_MIN} and ${PTZ_SPEED_MAX}`)
    .default(fallback);

export const ptzMoveSchema = z.object({
  connection: ptzTargetSchema,
  direction: z.enum(PTZ_DIRECTIONS, { error: `direction must be one of ${PTZ_DIRECTIONS.join(", ")}` }),
  speed: speed(PTZ_CALL_SPEEDS.move),
  /** A pulse: the server stops the move after this long (click-to-move). Without it the move lasts until stop or the watchdog. */
  durationMs: z.number().int().min(50, "durationMs must be 50–2000").max(2000, "durationMs must be 50–2000").optional(),
});
export type PtzMoveInput = z.input<typeof ptzMoveSchema>;

/** A signed drive speed: the sign is the direction (pan right / tilt up / zoom in positive), 0 holds that axis still. */
const signedSpeed = (axis: string) =>
  z
    .number({ error: `${axis} must be a number` })
    .int(`${axis} must be a whole number`)
    .min(-PTZ_SPEED_MAX, `${axis} must be between -${PTZ_SPEED_MAX} and ${PTZ_SPEED_MAX}`)
    .max(PTZ_SPEED_MAX, `${axis} must be between -${PTZ_SPEED_MAX} and ${PTZ_SPEED_MAX}`);

/** Auto-tracking's command: both axes at their own signed speed in one call (both 0 stops pan/tilt); zoom is left alone when omitted. */
export const ptzDriveSchema = z.object({
  connection: ptzTargetSchema,
  pan: signedSpeed("pan"),
  tilt: signedSpeed("tilt"),
  zoom: signedSpeed("zoom").optional(),
});
export type PtzDriveInput = z.input<typeof ptzDriveSchema>;

export const ptzZoomSchema = z.object({
  connection: ptzTargetSchema,
  direction: z.enum(["in", "out"], { error: "direction must be in or out" }),
  speed: speed(PTZ_CALL_SPEEDS.zoom),
});

export const ptzFocusSchema = z.object({
  connection: ptzTargetSchema,
  /** near/far drive the lens manually until stop; auto hands focus back to the camera. */
  direction: z.enum(["near", "far", "auto"], { error: "direction must be near, far or auto" }),
  speed: speed(PTZ_CALL_SPEEDS.focus),
});

export const PTZ_STOP_TARGETS = ["all", "move", "zoom", "focus"] as const;
export const ptzStopSchema = z.object({
  connection: ptzTargetSchema,
  what: z.enum(PTZ_STOP_TARGETS, { error: "what must be all, move, zoom or focus" }).default("all"),
});

export const ptzConnectSchema = z.object({ connection: ptzTargetSchema });

export const ptzCameraInfoSchema = z.object({
  ip: z.string(),
  port: z.number().int(),
  protocol: z.enum(PTZ_PROTOCOLS),
  model: z.string(),
});
export type PtzCameraInfo = z.infer<typeof ptzCameraInfoSchema>;

export const ptzPresetNumberSchema = z
  .number({ error: "number must be a number" })
  .int("number must be a whole number")
  .min(0, "number must be between 0 and 254")
  .max(254, "number must be between 0 and 254")
  .refine((n) => !RESERVED_PRESET_NUMBERS.includes(n), "Preset numbers 90–99, 150 and 151 are reserved by the camera");

export const ptzPresetSchema = z.object({
  connection: ptzTargetSchema,
  action: z.enum(["save", "recall", "delete"], { error: "action must be save, recall or delete" }),
  number: ptzPresetNumberSchema,
  name: z.string().trim().max(100, "name must be at most 100 characters").optional(),
});

export const EXPOSURE_SETTINGS = ["mode", "shutter", "iris", "gain", "temperature", "tint", "saturation"] as const;
export type ExposureSetting = (typeof EXPOSURE_SETTINGS)[number];

export const exposureSchema = z
  .object({
    connection: ptzTargetSchema,
    setting: z.enum(EXPOSURE_SETTINGS, { error: `setting must be one of ${EXPOSURE_SETTINGS.join(", ")}` }),
    value: z.union([z.number(), z.enum(["auto", "manual"])], { error: "value must be a number, auto or manual" }),
  })
  .superRefine((input, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    if (input.setting === "mode") {
      if (input.value !== "auto" && input.value !== "manual") fail("mode must be auto or manual");
      return;
    }
    if (typeof input.value !== "number") return fail(`${input.setting} must be a number`);
    if (input.setting === "shutter") {
      if (!(SHUTTER_SPEEDS as readonly number[]).includes(input.value)) fail(`shutter must be one of ${SHUTTER_SPEEDS.map((s) => `1/${s}`).join(", ")} (send the denominator)`);
      return;
    }
    const range = EXPOSURE_RANGES[input.setting];
    if (!Number.isInteger(input.value) || input.value < range.min || input.value > range.max) fail(`${input.setting} must be a whole number from ${range.min} to ${range.max}`);
  });
export type ExposureInput = z.output<typeof exposureSchema>;

export const ptzOkSchema = z.object({ ok: z.literal(true) });
