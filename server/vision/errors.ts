// What can go wrong talking to Moondream, classified once so retries and HTTP answers agree.
export type MoondreamFailure =
  /** 401/403: the key was refused. */
  | "unauthorized"
  /** 429, or too many calls already queued for this key here. */
  | "rate-limited"
  /** 413: the image is over the provider's limit. */
  | "too-large"
  /** Another 4xx: the provider could not use the request. */
  | "bad-request"
  /** No answer within the timeout (ours, or the provider's 408). */
  | "timeout"
  /** 5xx, 52x, or no connection at all. */
  | "unavailable"
  /** A success status carrying an error body (Moondream Station answers errors as HTTP 200 {"error"}). */
  | "provider-error"
  /** A success whose body is not the documented shape. */
  | "bad-response"
  /** The server has no such skill (an older Moondream Station without segmentation). */
  | "unsupported";

export class MoondreamError extends Error {
  constructor(
    readonly kind: MoondreamFailure,
    message: string,
    readonly details: { status?: number; retryAfterMs?: number; providerMessage?: string } = {},
  ) {
    super(message);
    this.name = "MoondreamError";
  }
}

/** The statuses the official client retries (408, 425, 429, 5xx and Cloudflare's 520–524). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 425 || status === 429 || (status >= 500 && status <= 599);
}

export function failureOfStatus(status: number): MoondreamFailure {
  if (status === 401 || status === 403) return "unauthorized";
  if (status === 413) return "too-large";
  if (status === 429) return "rate-limited";
  if (status === 408) return "timeout";
  if (status >= 500 || status === 425) return "unavailable";
  return "bad-request";
}

/** The provider's own words from an error body: {"error":{"message"}}, {"error":"..."}, {"detail"} or plain text. */
export function providerMessage(body: string): string | undefined {
  const text = body.trim();
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = parsed.error;
    if (typeof error === "string") return clip(error);
    if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return clip((error as { message: string }).message);
    if (typeof parsed.message === "string") return clip(parsed.message);
    if (typeof parsed.detail === "string") return clip(parsed.detail);
    return undefined;
  } catch {
    return text.startsWith("<") ? undefined : clip(text); // an HTML error page says nothing useful
  }
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
