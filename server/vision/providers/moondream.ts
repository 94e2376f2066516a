// The Moondream provider (../provider.ts): a small typed client for the Moondream REST API (cloud or a local
// Moondream Station) over fetch: caption, query and segment (optionally streamed as SSE), detect and point. Every call is timed out and retried
// with full-jitter backoff on 408/425/429/5xx and lost connections, honouring Retry-After; the caller
// admits the first attempt through the pacer, and each retry books its own pace slot.
import { EventSourceParserStream } from "eventsource-parser/stream";
import { z } from "zod";
import { MoondreamError, failureOfStatus, isRetryableStatus, providerMessage } from "../errors";
import { encodeJsonBody } from "../inline-image";
import type { CallContext, CaptionLength, ImageInput, ProviderBox, ProviderPoint, ProviderSegment, SegmentSupport, SpatialRef, VisionProvider } from "../provider";
import { backoffDelay, parseRetryAfter, sleep, type BackoffPolicy } from "../retry";

export interface MoondreamOptions {
  /** e.g. https://api.moondream.ai/v1 or http://localhost:2020/v1 */
  endpoint: string;
  /** Per attempt, including a streamed answer's last chunk. */
  timeoutMs: number;
  /** Further attempts after the first on a retryable failure. */
  maxRetries: number;
  /** Paces retries, and hears the provider's Retry-After for the key (the first attempt is the caller's to admit). */
  pacer?: RetryPacer;
  backoff?: BackoffPolicy;
  /** A Retry-After longer than this is not waited out here: the caller hears it (and passes it on). */
  maxRetryAfterMs?: number;
  fetch?: typeof fetch;
}

export interface RetryPacer {
  retrySlot(key: string, signal?: AbortSignal): Promise<void>;
  holdOff(key: string, ms: number): Promise<void>;
}

const captionBody = z.object({ caption: z.string() });
const answerBody = z.object({ answer: z.string() });
const detectBody = z.object({ objects: z.array(z.object({ x_min: z.number(), y_min: z.number(), x_max: z.number(), y_max: z.number() })) });
const pointBody = z.object({ points: z.array(z.object({ x: z.number(), y: z.number() })) });
const boxBody = z.object({ x_min: z.number(), y_min: z.number(), x_max: z.number(), y_max: z.number() });
const segmentBody = z.object({ path: z.string(), bbox: boxBody });
// Moondream Station streams {"chunk": …}; {"text": …} is read the same, in case the cloud sends that shape.
const streamEvent = z.object({ chunk: z.string().optional(), text: z.string().optional(), completed: z.boolean().optional(), error: z.unknown().optional() }).loose();
const segmentEvent = z
  .object({
    type: z.string().optional(),
    chunk: z.string().optional(),
    path: z.string().optional(),
    bbox: boxBody.optional(),
    completed: z.boolean().optional(),
    error: z.unknown().optional(),
  })
  .loose();

/** How long a server's "I cannot segment" is believed before asking it again (it may be updated meanwhile). */
export const SEGMENT_UNSUPPORTED_TTL_MS = 10 * 60_000;
/** What a server that has no /segment answers: FastAPI's 404/405, a 501, or Moondream Station's 200 {"error"} naming it. */
const NO_SEGMENT_STATUSES = new Set([404, 405, 501]);
const NO_SEGMENT_MESSAGE = /not (found|supported|implemented|available)|unknown (skill|endpoint|route|function)|no such (skill|endpoint|route)/i;

const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 250, capMs: 4000 };

/** The key (CallContext.apiKey) is sent as X-Moondream-Auth. */
export class MoondreamProvider implements VisionProvider {
  private readonly fetch: typeof fetch;
  private readonly backoff: BackoffPolicy;
  private readonly maxRetryAfterMs: number;

  /** Until when this endpoint is taken not to segment (0: not known to lack it); `segmented`: it answered a segment once. */
  private segmentUnsupportedUntil = 0;
  private segmented = false;

  constructor(private readonly options: MoondreamOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.backoff = options.backoff ?? DEFAULT_BACKOFF;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
  }

  /** A caption; with onChunk the answer streams in and each piece is handed over as it arrives. */
  async caption(input: { imageUrl: ImageInput; length?: CaptionLength }, ctx: CallContext, onChunk?: (text: string) => void): Promise<string> {
    const body = { image_url: input.imageUrl, length: input.length ?? "normal", stream: Boolean(onChunk) };
    return this.call("/caption", body, ctx, (response) => (onChunk ? readStream(response, onChunk, "caption") : readJson(response, captionBody).then((b) => b.caption)));
  }

  /** `reasoning`: the model thinks before answering (better counts, slower); the answer is still `answer`. */
  async query(input: { imageUrl?: ImageInput; question: string; reasoning?: boolean }, ctx: CallContext, onChunk?: (text: string) => void): Promise<string> {
    const body = { ...(input.imageUrl ? { image_url: input.imageUrl } : {}), question: input.question, stream: Boolean(onChunk), ...(input.reasoning ? { reasoning: true } : {}) };
    return this.call("/query", body, ctx, (response) => (onChunk ? readStream(response, onChunk, "answer") : readJson(response, answerBody).then((b) => b.answer)));
  }

  /** Boxes as fractions of the frame. `maxObjects` is sent as settings.max_objects (the engine's default is 50). */
  async detect(input: { imageUrl: ImageInput; object: string; maxObjects: number }, ctx: CallContext): Promise<ProviderBox[]> {
    const body = { image_url: input.imageUrl, object: input.object, settings: { max_objects: input.maxObjects } };
    return this.call("/detect", body, ctx, (response) => readJson(response, detectBody).then((b) => b.objects));
  }

  async point(input: { imageUrl: ImageInput; object: string; maxObjects?: number }, ctx: CallContext): Promise<ProviderPoint[]> {
    const body = { image_url: input.imageUrl, object: input.object, ...(input.maxObjects ? { settings: { max_objects: input.maxObjects } } : {}) };
    return this.call("/point", body, ctx, (response) => readJson(response, pointBody).then((b) => b.points));
  }

  /**
   * The outline of `object`: an SVG path normalised to `bbox`. A server without segmentation (an older Moondream
   * Station) is answered "unsupported", and remembered for SEGMENT_UNSUPPORTED_TTL_MS so no call is spent meanwhile.
   */
  async segment(input: { imageUrl: ImageInput; object: string; spatialRefs?: SpatialRef[] }, ctx: CallContext, onPath?: (path: string) => void): Promise<ProviderSegment> {
    if (this.segmentSupport() === "unsupported") throw noSegmentation();
    const body = { image_url: input.imageUrl, object: input.object, ...(input.spatialRefs?.length ? { spatial_refs: input.spatialRefs } : {}), stream: Boolean(onPath) };
    try {
      const answer = await this.call("/segment", body, ctx, (response) => (onPath ? readSegmentStream(response, onPath) : readJson(response, segmentBody)));
      this.segmented = true;
      return answer;
    } catch (error) {
      if (error instanceof MoondreamError && lacksSegmentation(error)) {
        this.segmentUnsupportedUntil = Date.now() + SEGMENT_UNSUPPORTED_TTL_MS;
        throw noSegmentation(error.details.providerMessage);
      }
      throw error;
    }
  }

  segmentSupport(): SegmentSupport {
    if (Date.now() < this.segmentUnsupportedUntil) return "unsupported";
    return this.segmented ? "available" : "unknown";
  }

  private async call<T>(path: string, body: Record<string, unknown>, ctx: CallContext, read: (response: Response) => Promise<T>): Promise<T> {
    // Bytes, not a string: fetch then sends the body in one write instead of streaming it (a frame is ~300 KB).
    // Encoded once for all attempts.
    const payload = encodeJsonBody(body);
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await this.options.pacer?.retrySlot(ctx.apiKey ?? "", ctx.signal);
      let streamed = false;
      try {
        return await this.attempt(path, payload, ctx, async (response) => {
          streamed = response.headers.get("content-type")?.includes("text/event-stream") ?? false;
          return read(response);
        });
      } catch (error) {
        // Once part of a streamed answer was handed over, a retry would repeat it.
        const delay = streamed ? undefined : this.retryDelay(error, attempt, ctx);
        if (delay === undefined) throw error;
        await sleep(delay, ctx.signal);
      }
    }
  }

  private async attempt<T>(path: string, payload: Buffer<ArrayBuffer>, ctx: CallContext, read: (response: Response) => Promise<T>): Promise<T> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "User-Agent": "framewise" };
    if (ctx.apiKey) headers["X-Moondream-Auth"] = ctx.apiKey;
    try {
      const response = await this.fetch(`${this.options.endpoint}${path}`, { method: "POST", headers, body: payload, signal });
      if (!response.ok) throw await statusError(response);
      return await read(response);
    } catch (error) {
      if (error instanceof MoondreamError) throw error;
      if (ctx.signal?.aborted) throw ctx.signal.reason;
      if (timeout.aborted) throw new MoondreamError("timeout", `Moondream did not answer within ${Math.round(this.options.timeoutMs / 1000)} s`);
      throw new MoondreamError(
        "unavailable",
        `Could not reach Moondream (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message})`,
      );
    }
  }

  /** How long to wait before the next attempt, or undefined when this failure is final. */
  private retryDelay(error: unknown, attempt: number, ctx: CallContext): number | undefined {
    if (!(error instanceof MoondreamError) || attempt >= this.options.maxRetries) return undefined;
    const { status, retryAfterMs } = error.details;
    const retryable = status !== undefined ? isRetryableStatus(status) : error.kind === "unavailable";
    if (!retryable) return undefined;
    if (retryAfterMs !== undefined && retryAfterMs > this.maxRetryAfterMs) return undefined;
    const delay = retryAfterMs ?? backoffDelay(attempt, this.backoff);
    if (status === 429) void this.options.pacer?.holdOff(ctx.apiKey ?? "", delay).catch(() => {}); // best effort: the retry waits anyway
    return delay;
  }
}

async function statusError(response: Response): Promise<MoondreamError> {
  const text = await response.text().catch(() => "");
  return new MoondreamError(failureOfStatus(response.status), `Moondream answered HTTP ${response.status}`, {
    status: response.status,
    retryAfterMs: parseRetryAfter(response.headers.get("retry-after")),
    providerMessage: providerMessage(text),
  });
}

function lacksSegmentation(error: MoondreamError): boolean {
  if (error.details.status !== undefined && NO_SEGMENT_STATUSES.has(error.details.status)) return true;
  return error.kind === "provider-error" && NO_SEGMENT_MESSAGE.test(error.details.providerMessage ?? "");
}

function noSegmentation(providerMessage?: string): MoondreamError {
  return new MoondreamError("unsupported", "This Moondream server does not segment", providerMessage ? { providerMessage } : {});
}

/** A JSON success body of the expected shape; Moondream Station reports errors as 200 {"error": ...}. */
async function readJson<T>(response: Response, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new MoondreamError("bad-response", "Moondream's answer was not JSON");
  }
  if (body && typeof body === "object" && "error" in body && (body as { error: unknown }).error) {
    throw new MoondreamError("provider-error", "Moondream reported an error", { providerMessage: providerMessage(JSON.stringify(body)) });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new MoondreamError("bad-response", "Moondream's answer did not have the expected fields");
  return parsed.data;
}

/**
 * Reads `data: {"chunk": "...", "completed": false}` events (or `{"text": "..."}`) until `completed: true` (Moondream
 * Station sends no `completed: false`). A server that ignored `stream: true` and sent JSON is read as JSON.
 */
async function readStream(response: Response, onChunk: (text: string) => void, field: "caption" | "answer"): Promise<string> {
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    const body = await readJson(response, z.object({ [field]: z.string() }));
    const text = (body as Record<string, string>)[field]!;
    if (text) onChunk(text);
    return text;
  }
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let data: z.infer<typeof streamEvent>;
      try {
        data = streamEvent.parse(JSON.parse(value.data));
      } catch {
        continue; // a keep-alive or an event we don't know: not part of the answer
      }
      if (data.error) throw new MoondreamError("provider-error", "Moondream reported an error", { providerMessage: providerMessage(JSON.stringify({ error: data.error })) });
      const piece = data.chunk ?? data.text;
      if (piece) {
        text += piece;
        onChunk(piece);
      }
      if (data.completed) return text;
    }
  } finally {
    // Frees the connection whether the answer completed, failed or was abandoned.
    void reader.cancel().catch(() => {});
  }
  if (text) return text; // the stream closed without its final event, but what came is a usable answer
  throw new MoondreamError("unavailable", "Moondream closed the stream before answering");
}

/**
 * Reads a segment stream: `{"type":"bbox"}`, `{"type":"path_delta","chunk"}` pieces of the coarse outline (each
 * handed over as the path so far), then `{"type":"final","path","bbox","completed":true}`. JSON is read as JSON.
 */
async function readSegmentStream(response: Response, onPath: (path: string) => void): Promise<ProviderSegment> {
  if (!response.headers.get("content-type")?.includes("text/event-stream")) return readJson(response, segmentBody);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
  let coarse = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let data: z.infer<typeof segmentEvent>;
      try {
        data = segmentEvent.parse(JSON.parse(value.data));
      } catch {
        continue;
      }
      if (data.error) throw new MoondreamError("provider-error", "Moondream reported an error", { providerMessage: providerMessage(JSON.stringify({ error: data.error })) });
      if (data.type === "path_delta" && data.chunk) {
        coarse += data.chunk;
        onPath(coarse);
      }
      if (data.type === "final" || data.completed) {
        const final = segmentBody.safeParse(data);
        if (!final.success) throw new MoondreamError("bad-response", "Moondream's answer did not have the expected fields");
        return final.data;
      }
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  throw new MoondreamError("unavailable", "Moondream closed the stream before answering");
}
