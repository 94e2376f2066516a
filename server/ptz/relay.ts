// What the PTZ routes share: the body limit, and camera failures as problem responses.
import { ProblemError } from "../errors";
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

/** PTZ commands are a few fields; their bodies are read while the session is looked up (server/http/authenticated-json.ts). */
export const PTZ_BODY_LIMIT = 16 * 1024;
