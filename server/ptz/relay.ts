// What the PTZ routes share: the signed-in check, and camera failures as problem responses.
import type { z } from "zod";
import { requireUser } from "../accounts/sessions";
import { ProblemError } from "../errors";
import { readJson } from "../http/api";
import { logger } from "../logger";
import { setTimeout as sleep } from "node:timers/promises";
import { CAMERA_TIMEOUT_MS, PtzError, type PtzFailureKind } from "./driver";

const STATUS: Record<PtzFailureKind, { status: number; title: string }> = {
  refused: { status: 403, title: "Camera address not allowed" },
  auth: { status: 502, title: "Camera authentication failed" },
  unreachable: { status: 504, title: "Camera unreachable" },
  unsupported: { status: 501, title: "Command not supported by the camera" },
  camera: { status: 502, title: "Camera error" },
};

/**
 * An unreachable camera answers no sooner than a silent one would (the 4 s camera deadline). A refused port fails
 * in milliseconds and a filtered one only at the deadline, so without this floor the answer's timing would tell a
 * signed-in user which hosts and ports exist behind the server. A person who mistyped an address waits the same
 * 4 s a wrong IP address already costs; nothing that works is slowed down.
 */
export const UNREACHABLE_FLOOR_MS = CAMERA_TIMEOUT_MS;

/** Runs one relay call; a PtzError leaves as problem JSON whose detail is the operator-facing message. */
export async function relay<T>(run: () => Promise<T>, unreachableFloorMs = UNREACHABLE_FLOOR_MS): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } catch (error) {
    if (error instanceof PtzError) {
      if (error.kind === "unreachable") {
        logger.info({ detail: error.message, why: (error as PtzError & { why?: string }).why }, "PTZ camera unreachable");
        await sleep(Math.max(0, started + unreachableFloorMs - performance.now()));
      }
      const { status, title } = STATUS[error.kind];
      throw new ProblemError(status, error.message, { title });
    }
    throw error;
  }
}

/**
 * Signs the caller in and reads the body at the same time: a held joystick is latency-bound, and the session
 * lookup (a database round trip) need not wait for the body. An anonymous caller still gets 401 first.
 */
export async function readPtzRequest<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const [user, body] = await Promise.allSettled([requireUser(request), readJson(request, schema, 16 * 1024)]);
  if (user.status === "rejected") throw user.reason;
  if (body.status === "rejected") throw body.reason;
  return body.value;
}
