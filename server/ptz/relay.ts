// What the PTZ routes share: the signed-in check, and camera failures as problem responses.
import { ProblemError } from "../http/problem";
import { PtzError, type PtzFailureKind } from "./driver";

const STATUS: Record<PtzFailureKind, { status: number; title: string }> = {
  refused: { status: 403, title: "Camera address not allowed" },
  auth: { status: 502, title: "Camera authentication failed" },
  unreachable: { status: 504, title: "Camera unreachable" },
  unsupported: { status: 501, title: "Command not supported by the camera" },
  camera: { status: 502, title: "Camera error" },
};

/** Runs one relay call; a PtzError leaves as problem JSON whose detail is the operator-facing message. */
export async function relay<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PtzError) {
      const { status, title } = STATUS[error.kind];
      throw new ProblemError(status, error.message, { title });
    }
    throw error;
  }
}
