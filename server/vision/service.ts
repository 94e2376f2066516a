// Every AI call of the studio: validate the frame, pick the key (the user's, or the shared key's free calls),
// wait for the key's pace slot (fair between users; loop calls never queue), take the free call only then,
// call the provider (./provider.ts: Moondream), and turn its answer into the structures the studio draws. A call the provider fails is
// given back to the quota and answered as problem JSON that says what to do. A call is counted for its feature in
// the user's calls per hour (./usage.ts) while the provider works on it, and taken back if the provider fails it.
// It returns results only: keeping one (a counting snapshot, the live scoreboard, a photo) is the caller's part.
import type {
  AiFeature,
  AssistantRequest,
  Box,
  CallPriority,
  CaptionRequest,
  CountRequest,
  DetectRequest,
  Point,
  PointRequest,
  QueryRequest,
  Recommendations,
  Scoreboard,
  ScoreboardRequest,
} from "#app/schemas/vision";
import { QUERY_ANSWER_MAX_LENGTH, SEGMENTATION_UNSUPPORTED, VISION_PROBLEM, keyBusy } from "#app/schemas/vision";
import type { CurrentUser } from "#app/schemas/auth";
import type { Session } from "../accounts/sessions";
import type { Frame } from "../images/frame";
import type { DB } from "#db/index";
import { config } from "../config";
import { ProblemError } from "../errors";
import { logger } from "../logger";
import { chooseCredential, giveBack, takeCall } from "./credentials";
import { MoondreamError } from "./errors";
import { prepareForModel, type ModelFrame } from "./frames";
import { countCall, type PendingCount } from "./usage";
import type { CallContext, ProviderBox, ProviderPoint, ProviderSegment, SpatialRef, VisionProvider } from "./provider";
import { MoondreamProvider } from "./providers/moondream";
import { httpFetch } from "./http-fetch";
import { PaceRefused, Pacer } from "./pacer";
import { PostgresSlotBook } from "./pace-slots";
import { parseAdvice } from "./parsers/advice";
import { normaliseCaption } from "./parsers/caption";
import { parseCountAnswer, type CountEstimate } from "./parsers/count";
import { parseScoreboard } from "./parsers/scoreboard";
import { providerProblem } from "./problems";
import { COUNT_RANGE_QUESTION, STORY_CAPTION_QUESTION, assistantQuestion, scoreboardQuestion } from "./prompts";

/** A key's queue here holds at most this much waiting (20 calls at 2/s); a call past it is refused (429). */
const MAX_PACE_WAIT_MS = 10_000;
/** On the shared key, per user: calls at the provider at once, and calls waiting for a slot (see the README). */
export const SHARED_KEY_USER_IN_FLIGHT = 3;
export const SHARED_KEY_USER_WAITING = 4;
/** Pointing at a crowd: the engine's default cap (50) would undercount a full room. */
const MAX_PEOPLE_POINTS = 500;

/**
 * The vision client and its key pacer: built once per process by the composition root (server/composition.ts) and
 * handed to every AI call, so all of a process's calls share one pace per key.
 */
export interface Vision {
  provider: VisionProvider;
  pacer: Pacer;
}

/** Moondream (MOONDREAM_ENDPOINT, MOONDREAM_TIMEOUT_MS, MOONDREAM_MAX_RETRIES) paced at MOONDREAM_REQUESTS_PER_SECOND per key. */
export function createVision(db: () => DB): Vision {
  const { endpoint, timeoutMs, maxRetries, requestsPerSecond } = config().moondream;
  const pacer = new Pacer({
    ratePerSecond: requestsPerSecond,
    maxWaitMs: MAX_PACE_WAIT_MS,
    perUserInFlight: SHARED_KEY_USER_IN_FLIGHT,
    perUserWaiting: SHARED_KEY_USER_WAITING,
    slots: new PostgresSlotBook(db),
  });
  return { provider: new MoondreamProvider({ endpoint, timeoutMs, maxRetries, fetch: httpFetch, pacer }), pacer };
}

/** One AI call: who asks, the validated input besides the frame, and the frame as bytes (decoded at the HTTP edge). */
export interface FrameCall<T> {
  /** The caller's session: the user, and their stored key read with it (no second query). */
  session: Session;
  input: Omit<T, "imageData" | "imageBase64">;
  frame: Frame;
  /** What the call is counted as when not the operation's own feature (a server monitor's calls: "monitors"). */
  feature?: AiFeature;
}

interface Prepared {
  frame: ModelFrame;
  storedKey: string | null;
  /** The feature a kept call is counted for (see ./usage.ts). */
  feature: AiFeature;
}

/** Checks the frame; a bad frame never touches the quota. */
async function prepare(call: FrameCall<unknown>, feature: AiFeature): Promise<Prepared> {
  return { frame: await prepareForModel(call.frame), storedKey: call.session.keyCiphertext, feature: call.feature ?? feature };
}

/**
 * Runs one provider call: the key is chosen, the call waits for its pace slot (or is refused at once), only
 * then is a shared-key call taken from the free calls, and any failure of the provider gives it back.
 */
async function withProvider<T>(
  db: DB,
  vision: Vision,
  user: CurrentUser,
  prepared: Prepared,
  priority: CallPriority,
  signal: AbortSignal | undefined,
  call: (provider: VisionProvider, ctx: CallContext) => Promise<T>,
): Promise<T> {
  const chosen = chooseCredential(user, prepared.storedKey);
  const ticket = await admit(vision.pacer, chosen.apiKey ?? "", user.id, chosen.source, priority, signal);
  let answer: T;
  let count: PendingCount;
  try {
    const credential = await takeCall(db, user.id, chosen);
    // Counted while the provider works, so the write adds no round trip to the answer; taken back if the call fails.
    count = countCall(db, user.id, prepared.feature);
    try {
      answer = await call(vision.provider, { apiKey: credential.apiKey, signal });
    } catch (error) {
      await Promise.all([giveBack(db, user.id, credential), count.dropped()]);
      // The browser went away (and the call with it): nobody reads this answer, and it is no server error.
      if (signal?.aborted) throw new ProblemError(499, "The request was cancelled");
      if (!(error instanceof MoondreamError)) throw error;
      logger.warn({ kind: error.kind, status: error.details.status, provider: error.details.providerMessage, keySource: credential.source }, "Moondream call failed");
      throw providerProblem(error, credential.source, config().moondream.timeoutMs);
    }
  } finally {
    ticket.release();
  }
  // The count is written before the answer goes out (a usage read after it sees the call); the answer is the
  // user's even when the count could not be written.
  await count.kept();
  return answer;
}

/** The key's pace slot; a full queue (or a loop call that would queue) is 429 "… is busy; try again in N s". */
async function admit(pacer: Pacer, key: string, userId: string, source: "user" | "shared" | "none", priority: CallPriority, signal: AbortSignal | undefined) {
  try {
    return await pacer.admit({ key, userId, priority, shared: source === "shared", signal });
  } catch (error) {
    if (signal?.aborted) throw new ProblemError(499, "The request was cancelled");
    if (!(error instanceof PaceRefused)) throw error;
    const seconds = Math.max(1, Math.ceil(error.retryAfterMs / 1000));
    throw new ProblemError(429, keyBusy(source, seconds), { type: VISION_PROBLEM.busy, headers: { "Retry-After": String(seconds) } });
  }
}

/**
 * A caption of the frame (story mode: a narrative one, asked through /query), as plain prose. An empty
 * caption means "nothing new": the provider answered nothing usable, and the studio keeps what it shows
 * and records nothing in the story.
 */
export async function caption(db: DB, vision: Vision, call: FrameCall<CaptionRequest>, signal?: AbortSignal, onChunk?: (text: string) => void): Promise<{ caption: string }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, input.storyMode ? "story" : "captions");
  const { frame } = prepared;
  const text = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    input.storyMode
      ? provider.query({ imageUrl: frame.image, question: STORY_CAPTION_QUESTION }, ctx, onChunk)
      : provider.caption({ imageUrl: frame.image, length: "normal" }, ctx, onChunk),
  );
  // Plain prose whatever the model wrote (JSON, markdown, a refusal); "" when there is nothing to show.
  return { caption: normaliseCaption(text) };
}

export async function point(db: DB, vision: Vision, call: FrameCall<PointRequest>, signal?: AbortSignal): Promise<{ points: Point[] }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "points");
  const { frame } = prepared;
  const points = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) => provider.point({ imageUrl: frame.image, object: input.object }, ctx));
  return { points: points.filter(inFrame).map(({ x, y }) => ({ x, y })) };
}

/**
 * Boxes of the object, at most `maxObjects` (sent to the provider, and enforced here too since Moondream
 * Station ignores it). `confidenceThreshold` filters nothing: Moondream gives no confidence (see the schema).
 */
export async function detect(db: DB, vision: Vision, call: FrameCall<DetectRequest>, signal?: AbortSignal): Promise<{ boxes: Box[] }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "detection");
  const { frame } = prepared;
  const objects = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.detect({ imageUrl: frame.image, object: input.object, maxObjects: input.maxObjects }, ctx),
  );
  return {
    boxes: objects
      .map(clampBox)
      .filter((box): box is Box => box !== null)
      .slice(0, input.maxObjects),
  };
}

/** A question about the frame (local vision's "describe with Moondream"): the answer, trimmed and capped. */
export async function query(db: DB, vision: Vision, call: FrameCall<QueryRequest>, signal?: AbortSignal): Promise<{ answer: string }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "event_description");
  const { frame } = prepared;
  const answer = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.query({ imageUrl: frame.image, question: input.question }, ctx),
  );
  const text = answer.trim();
  return { answer: text.length > QUERY_ANSWER_MAX_LENGTH ? `${text.slice(0, QUERY_ANSWER_MAX_LENGTH - 1)}…` : text };
}

/** Reads the scoreboard: each field the model could read, null for the others. */
export async function readScoreboard(db: DB, vision: Vision, call: FrameCall<ScoreboardRequest>, signal?: AbortSignal): Promise<{ scoreboard: Scoreboard }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "scoreboard");
  const { frame } = prepared;
  const answer = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.query({ imageUrl: frame.image, question: scoreboardQuestion(input.sport) }, ctx),
  );
  return { scoreboard: parseScoreboard(answer) };
}

/** How many people a frame shows (a count, or a low–high estimate in range mode), and the frame as the model got it. */
export interface PeopleEstimate extends CountEstimate {
  /** The frame's bytes as sent (downscaled when it was large). */
  image: Buffer;
}

/**
 * Counts people by pointing at each one (the count is the number of points), or in range mode asks for a
 * low–high estimate. `beforeCall` runs once the frame is checked and before a call is spent: counting refuses
 * there a session that could not store the result (server/counting/count.ts).
 */
export async function estimatePeople(db: DB, vision: Vision, call: FrameCall<CountRequest>, signal?: AbortSignal, beforeCall?: () => Promise<void>): Promise<PeopleEstimate> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "people_count");
  const { frame } = prepared;
  await beforeCall?.();
  if (input.useRange) {
    // Reasoning makes the model count before it answers: a tighter range for a slower call (docs/architecture.md, Vision).
    const answer = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
      provider.query({ imageUrl: frame.image, question: COUNT_RANGE_QUESTION, reasoning: true }, ctx),
    );
    const parsed = parseCountAnswer(answer);
    if (!parsed) throw new ProblemError(502, `Moondream's answer had no count in it ("${answer.slice(0, 80)}"); try again`);
    return { ...parsed, image: frame.bytes };
  }
  const points = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.point({ imageUrl: frame.image, object: "person", maxObjects: MAX_PEOPLE_POINTS }, ctx),
  );
  return { count: points.filter(inFrame).length, min: null, max: null, image: frame.bytes };
}

/** What segment is asked: the object, and optional seeds (points or boxes, fractions of the frame). */
export interface SegmentInput {
  object: string;
  spatialRefs?: SpatialRef[] | undefined;
  priority: CallPriority;
}

/**
 * The outline of an object as the provider gave it (a path normalised to its bbox; checking it is the caller's,
 * server/photo-edits/path.ts). A server known not to segment is answered 501 at once, without spending a call.
 */
export async function segment(db: DB, vision: Vision, call: FrameCall<SegmentInput>, signal?: AbortSignal): Promise<ProviderSegment> {
  const {
    input,
    session: { user },
  } = call;
  if (vision.provider.segmentSupport() === "unsupported") throw new ProblemError(501, SEGMENTATION_UNSUPPORTED, { type: VISION_PROBLEM.segmentationUnsupported });
  const prepared = await prepare(call, "segmentation");
  const { frame } = prepared;
  return withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.segment({ imageUrl: frame.image, object: input.object, ...(input.spatialRefs ? { spatialRefs: input.spatialRefs } : {}) }, ctx),
  );
}

export async function analyzeShot(db: DB, vision: Vision, call: FrameCall<AssistantRequest>, signal?: AbortSignal): Promise<{ recommendations: Recommendations }> {
  const {
    input,
    session: { user },
  } = call;
  const prepared = await prepare(call, "shot_advice");
  const { frame } = prepared;
  const answer = await withProvider(db, vision, user, prepared, input.priority, signal, (provider, ctx) =>
    provider.query({ imageUrl: frame.image, question: assistantQuestion(input) }, ctx),
  );
  return { recommendations: parseAdvice(answer) };
}

const unit = (value: number) => Number.isFinite(value) && value >= 0 && value <= 1;

function inFrame(p: ProviderPoint): boolean {
  return unit(p.x) && unit(p.y);
}

/** Clamps a box into the frame; a box with no area left is dropped. */
function clampBox(box: ProviderBox): Box | null {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  if (![box.x_min, box.y_min, box.x_max, box.y_max].every(Number.isFinite)) return null;
  const b = { x_min: clamp(box.x_min), y_min: clamp(box.y_min), x_max: clamp(box.x_max), y_max: clamp(box.y_max) };
  return b.x_max > b.x_min && b.y_max > b.y_min ? b : null;
}
