// Provider failures as problem JSON with a `detail` a person can act on, naming the key when it is the problem.
import { RATE_LIMITED, SEGMENTATION_UNSUPPORTED, VISION_PROBLEM } from "#app/schemas/vision";
import { ProblemError } from "../errors";
import type { KeySource } from "./credentials";
import type { MoondreamError } from "./errors";

export function providerProblem(error: MoondreamError, source: KeySource, timeoutMs: number): ProblemError {
  const { status, retryAfterMs, providerMessage } = error.details;
  const said = providerMessage ? `: ${providerMessage}` : "";
  switch (error.kind) {
    case "unauthorized":
      if (source === "user")
        return new ProblemError(400, "Moondream rejected your API key. Check it in AI settings, or paste a new key from moondream.ai.", { type: VISION_PROBLEM.keyRejected });
      if (source === "shared")
        return new ProblemError(502, "Moondream rejected the studio's shared API key. Add your own free Moondream API key in AI settings to keep going.", {
          type: VISION_PROBLEM.keyRejected,
        });
      return new ProblemError(502, `The Moondream server refused the call without a key (HTTP ${status ?? 401}); check its settings`);
    case "rate-limited":
      return new ProblemError(429, RATE_LIMITED, { type: VISION_PROBLEM.rateLimited, headers: { "Retry-After": String(Math.max(1, Math.ceil((retryAfterMs ?? 1000) / 1000))) } });
    case "too-large":
      return new ProblemError(413, "The image is too large for Moondream (10 MB at most)", { errors: { imageData: ["too large"] } });
    case "bad-request":
      return new ProblemError(422, `Moondream could not use this request${said}`);
    case "timeout":
      return new ProblemError(504, `Moondream did not answer within ${Math.round(timeoutMs / 1000)} s; try again`);
    case "unavailable":
      return new ProblemError(502, status ? `Moondream is unavailable right now (HTTP ${status}); try again shortly` : "Could not reach Moondream; try again shortly");
    case "provider-error":
      return new ProblemError(502, `Moondream reported an error${said}`);
    case "bad-response":
      return new ProblemError(502, "Moondream sent an answer the studio could not read; try again");
    case "unsupported":
      return new ProblemError(501, SEGMENTATION_UNSUPPORTED, { type: VISION_PROBLEM.segmentationUnsupported });
  }
}
