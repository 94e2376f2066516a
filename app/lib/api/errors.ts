// The typed client's errors (the spec's contract): any non-success answer is raised as "<status>: <body text>",
// and these helpers read the RFC 9457 problem in it for people (detail, field errors) and for code (type).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    statusText: string,
    /** The answer's Retry-After in seconds (429, 503), when it sent one as a number. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status}: ${body || statusText}`);
    this.name = "ApiError";
  }

  /** The message to show a person: the problem's `detail` when the server sent one. */
  get detail(): string {
    try {
      const parsed = JSON.parse(this.body) as { detail?: unknown };
      if (typeof parsed.detail === "string") return parsed.detail;
    } catch {
      // not JSON: fall through to the raw text
    }
    return this.body || this.message;
  }
}

/** Retry-After as whole seconds; null when absent or an HTTP date (the API sends seconds). */
export function retryAfterSeconds(headers: Headers): number | null {
  const value = headers.get("retry-after");
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : null;
}

/** The problem `type` of a failed call, when the server sent problem JSON. */
export function problemType(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const parsed = JSON.parse(error.body) as { type?: unknown };
    return typeof parsed.type === "string" ? parsed.type : null;
  } catch {
    return null;
  }
}

/** The problem's field errors (`errors`, e.g. `{ webhookUrl: ["…"] }`), to show under the fields; {} when none. */
export function problemFieldErrors(error: unknown): Record<string, string[]> {
  if (!(error instanceof ApiError)) return {};
  try {
    const parsed = JSON.parse(error.body) as { errors?: unknown };
    return parsed.errors && typeof parsed.errors === "object" ? (parsed.errors as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

/** Whether a call failed only because its caller gave up on it (a loop stopped). */
export function isAbort(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === "AbortError";
}

/** What to show a person for any thrown value. */
export function errorDetail(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
