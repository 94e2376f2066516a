// The ptz operations' handlers (app/schemas/operations/ptz.ts), one per catalogue entry.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import { ptzService } from "#server/ptz/service";
import { ptzConnectionFor } from "#server/ptz/camera-connection";
import { db } from "#db/index";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const ptz = {
  // POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
  connect: handle(api.ptz.connect, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) =>
    relay(async () => ptzService().connect(await ptzConnectionFor(db(), user.id, body.connection))),
  ),
  // POST /api/ptz/move {connection, direction, speed, durationMs?}: starts a pan/tilt (or goes home); it runs until stop, durationMs, or 2 s without a command.
  move: handle(api.ptz.move, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().move(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed, body.durationMs));
    return { ok: true } as const;
  }),
  // POST /api/ptz/drive {connection, pan, tilt, zoom?}: signed pan/tilt (and zoom) speeds for auto-tracking; runs until the next drive, stop, or 2 s without a command.
  drive: handle(api.ptz.drive, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().drive(await ptzConnectionFor(db(), user.id, body.connection), body.pan, body.tilt, body.zoom));
    return { ok: true } as const;
  }),
  // POST /api/ptz/zoom {connection, direction in/out, speed}: zooms until stop (or the 2 s watchdog).
  zoom: handle(api.ptz.zoom, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().zoom(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed));
    return { ok: true } as const;
  }),
  // POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
  focus: handle(api.ptz.focus, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().focus(await ptzConnectionFor(db(), user.id, body.connection), body.direction, body.speed));
    return { ok: true } as const;
  }),
  // POST /api/ptz/stop {connection, what?}: stops pan/tilt, zoom and focus (or one of them).
  stop: handle(api.ptz.stop, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().stop(await ptzConnectionFor(db(), user.id, body.connection), body.what));
    return { ok: true } as const;
  }),
  // POST /api/ptz/preset {connection, action save/recall/delete, number, name?}: the camera's own preset slots (never 90–99, 150, 151).
  preset: handle(api.ptz.preset, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().preset(await ptzConnectionFor(db(), user.id, body.connection), body.action, body.number, body.name));
    return { ok: true } as const;
  }),
  // POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
  exposure: handle(api.ptz.exposure, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body }) => {
    await relay(async () => ptzService().exposure(await ptzConnectionFor(db(), user.id, body.connection), body.setting, body.value));
    return { ok: true } as const;
  }),
} satisfies ResourceHandlers<typeof api.ptz>;
