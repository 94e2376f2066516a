// What every AI loop (captions, counting, scoreboard) needs from the rest of the studio, narrowed so a test can
// drive a loop with a small fake.
import type { GrabbedFrame } from "../frames/frame-grabber";
import type { AiAccount } from "./account";
import type { AiFailureNotices } from "./failure-notices";

export interface AiLoopHost {
  failures: Pick<AiFailureNotices, "report" | "succeeded">;
  /** Told of every AI call so the free-call count in the AI tab stays current. */
  account: Pick<AiAccount, "noteCall">;
  /** The selected camera's picture downscaled for AI. */
  grabFrame(quality: number): Promise<GrabbedFrame | null>;
}
