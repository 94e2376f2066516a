// The ptz operations of the catalogue (see ./define.ts).
import { exposureSchema, ptzCameraInfoSchema, ptzConnectSchema, ptzFocusSchema, ptzMoveSchema, ptzOkSchema, ptzPresetSchema, ptzStopSchema, ptzZoomSchema } from "../ptz";
import { defineOperation, ptzErrors } from "./define";

export const ptz = {
  connect: defineOperation({ method: "post", path: "/api/ptz/connect", summary: "Verify a PTZ camera (ONVIF, VISCA over TCP or PTZOptics HTTP-CGI; found when protocol is omitted) and return its model", tag: "PTZ", access: "user", body: ptzConnectSchema, success: { status: 200, schema: ptzCameraInfoSchema }, errors: ptzErrors }),
  move: defineOperation({ method: "post", path: "/api/ptz/move", summary: "Start a pan/tilt in a direction at speed 1–24 (or go home); it runs until stop, durationMs, or 2 s without a command", tag: "PTZ", access: "user", body: ptzMoveSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
  zoom: defineOperation({ method: "post", path: "/api/ptz/zoom", summary: "Zoom in or out until stop (or 2 s without a command)", tag: "PTZ", access: "user", body: ptzZoomSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
  focus: defineOperation({ method: "post", path: "/api/ptz/focus", summary: "Focus near or far until stop, or back to autofocus", tag: "PTZ", access: "user", body: ptzFocusSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
  stop: defineOperation({ method: "post", path: "/api/ptz/stop", summary: "Stop pan/tilt, zoom and focus (or one of them)", tag: "PTZ", access: "user", body: ptzStopSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
  preset: defineOperation({ method: "post", path: "/api/ptz/preset", summary: "Save, recall or delete one of the camera's own preset slots (90–99, 150, 151 are reserved)", tag: "PTZ", access: "user", body: ptzPresetSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
  exposure: defineOperation({ method: "post", path: "/api/exposure", summary: "Set a manual exposure value of a PTZ camera (shutter, iris, gain, temperature, tint, saturation, or mode)", tag: "PTZ", access: "user", body: exposureSchema, success: { status: 200, schema: ptzOkSchema }, errors: ptzErrors }),
};
