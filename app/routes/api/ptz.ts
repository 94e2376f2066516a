// The ptz operations' handlers (app/schemas/operations/ptz.ts), one per catalogue entry.
import { PTZ_BODY_LIMIT, relay } from "#server/ptz/relay";
import type { PtzService } from "#server/ptz/service";
import type { z } from "zod";
import { ptzConnectionFor } from "#server/cameras/ptz-connection";
import { pauseFollowByHand } from "#server/local-vision/watch";
import type { PtzConnection } from "../../schemas/ptz";
import { db } from "#db/index";
import { handle } from "#server/http/operation";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

type Command = (typeof api.ptz)[Exclude<keyof typeof api.ptz, "connect">];

/**
 * A command relayed to the caller's camera (by its id, or an address): answers `{ ok: true }` once the camera took it.
 * `manual`: it moves the camera, so it pauses the server's follow of that camera first (the person takes over).
 */
function command<O extends Command>(
  operation: O,
  run: (ptz: PtzService, camera: PtzConnection, body: z.output<NonNullable<O["body"]>>) => Promise<unknown>,
  manual: (body: z.output<NonNullable<O["body"]>>) => boolean = () => true,
) {
  return handle(operation as Command, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) => {
    const target = body.connection;
    if ("cameraId" in target && manual(body as z.output<NonNullable<O["body"]>>)) await pauseFollowByHand(db(), user.id, target.cameraId);
    await relay(async () => run(services.ptz, await ptzConnectionFor(db(), user.id, body.connection), body as z.output<NonNullable<O["body"]>>));
    return { ok: true } as const;
  });
}

export const ptz = {
  // POST /api/ptz/connect {connection}: verifies the camera (finding its protocol when none is given) and returns its model.
  connect: handle(api.ptz.connect, { bodyLimit: PTZ_BODY_LIMIT }, async ({ user, body, services }) =>
    relay(async () => services.ptz.connect(await ptzConnectionFor(db(), user.id, body.connection))),
  ),
  // POST /api/ptz/move {connection, direction, speed, durationMs?}: starts a pan/tilt (or goes home); it runs until stop, durationMs, or 2 s without a command.
  move: command(api.ptz.move, (ptz, camera, body) => ptz.move(camera, body.direction, body.speed, body.durationMs)),
  // POST /api/ptz/drive {connection, pan, tilt, zoom?}: signed pan/tilt (and zoom) speeds for auto-tracking; runs until the next drive, stop, or 2 s without a command.
  drive: command(api.ptz.drive, (ptz, camera, body) => ptz.drive(camera, body.pan, body.tilt, body.zoom)),
  // POST /api/ptz/zoom {connection, direction in/out, speed}: zooms until stop (or the 2 s watchdog).
  zoom: command(api.ptz.zoom, (ptz, camera, body) => ptz.zoom(camera, body.direction, body.speed)),
  // POST /api/ptz/focus {connection, direction near/far/auto, speed}: drives focus until stop, or back to autofocus.
  focus: command(
    api.ptz.focus,
    (ptz, camera, body) => ptz.focus(camera, body.direction, body.speed),
    () => false,
  ),
  // POST /api/ptz/stop {connection, what?}: stops pan/tilt, zoom and focus (or one of them).
  stop: command(api.ptz.stop, (ptz, camera, body) => ptz.stop(camera, body.what)),
  // POST /api/ptz/preset {connection, action save/recall/delete, number, name?}: the camera's own preset slots (never 90–99, 150, 151).
  preset: command(
    api.ptz.preset,
    (ptz, camera, body) => ptz.preset(camera, body.action, body.number, body.name),
    (body) => body.action === "recall",
  ),
  // POST /api/exposure {connection, setting, value}: manual exposure of a PTZ camera, mapped to its protocol's ranges.
  exposure: command(
    api.ptz.exposure,
    (ptz, camera, body) => ptz.exposure(camera, body.setting, body.value),
    () => false,
  ),
} satisfies ResourceHandlers<typeof api.ptz>;
