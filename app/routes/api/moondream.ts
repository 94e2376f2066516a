// The moondream operations' handlers (app/schemas/operations/moondream.ts), one per catalogue entry.
import { db } from "#db/index";
import { ProblemError } from "#server/errors";
import { deleteApiKey, saveApiKey, freeCalls } from "#server/vision/credentials";
import { handle } from "#server/http/operation";
import { INVALID_API_KEY } from "../../schemas/vision";
import { usage } from "#server/vision/usage";
import { FRAME_BODY } from "#server/vision/frames";
import { aiFrame, withFrameField } from "#server/http/frame-input";
import { caption, point, detect, query, analyzeShot } from "#server/vision/service";
import { readScoreboard } from "#server/scoreboard/service";
import { textEventStream } from "#server/http/text-stream";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

export const moondream = {
  // POST /api/moondream/api-key {apiKey} → saves the user's own Moondream key (encrypted; never returned).
  // DELETE → forgets it, so calls use the shared key's free quota again.
  // Whatever is wrong with the key, the person sees the spec's one message (not "apiKey: …").
  saveApiKey: handle(api.moondream.saveApiKey, { badInput: () => new ProblemError(400, INVALID_API_KEY, { errors: { apiKey: [INVALID_API_KEY] } }) }, async ({ user, body }) =>
    saveApiKey(db(), user.id, body.apiKey),
  ),
  removeApiKey: handle(api.moondream.removeApiKey, async ({ user }) => deleteApiKey(db(), user.id)),
  // GET /api/moondream/free-calls → {hasMoondreamApiKey, used, limit, sharedKey, poolExhausted}: what the studio
  // says about the shared key's free calls before a call is made.
  freeCalls: handle(api.moondream.freeCalls, async ({ session }) => freeCalls(db(), session)),
  // GET /api/moondream/usage → {currentHour, hours, totals}: the user's Moondream calls per UTC hour and feature
  // over the last 24 hours, for the AI tab's "AI calls" panel.
  usage: handle(api.moondream.usage, async ({ session }) => usage(db(), session.user.id)),
  // POST /api/moondream/caption {imageData, storyMode} → {caption}: plain prose, "" for nothing new. With Accept:
  // text/event-stream the caption streams as it is written: `chunk` events (the model's raw text), then `done`
  // with {caption}, the normalised caption to show in its place (or `problem`).
  caption: handle(api.moondream.caption, FRAME_BODY, async ({ request, session, body, decoded, services }) => {
    if (request.headers.get("accept")?.includes("text/event-stream")) {
      return textEventStream((onChunk) => caption(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal, onChunk));
    }
    return caption(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal);
  }),
  // POST /api/moondream/point {imageData, object} → {points} (fractions of the frame).
  point: handle(api.moondream.point, FRAME_BODY, async ({ request, session, body, decoded, services }) =>
    point(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
  // POST /api/moondream/detect {imageData, object, maxObjects, confidenceThreshold} → {boxes} (fractions of the frame).
  detect: handle(api.moondream.detect, FRAME_BODY, async ({ request, session, body, decoded, services }) =>
    detect(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
  // POST /api/moondream/query {imageData, question, priority} → {answer}: local vision's "describe with Moondream".
  query: handle(api.moondream.query, FRAME_BODY, async ({ request, session, body, decoded, services }) =>
    query(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
  // POST /api/moondream/scoreboard {imageData, sport} → {scoreboard}; a readable one becomes the user's live scoreboard.
  scoreboard: handle(api.moondream.scoreboard, FRAME_BODY, async ({ request, session, body, decoded, services }) =>
    readScoreboard(db(), services.vision, { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal),
  ),
  // POST /api/camera-assistant/analyze {imageBase64, cameraType, targetLook, intent} → {recommendations}.
  analyzeShot: handle(api.moondream.analyzeShot, { ...FRAME_BODY, frameField: "imageBase64" }, async ({ request, session, body, decoded, services }) =>
    withFrameField("imageBase64", () => analyzeShot(db(), services.vision, { session, input: body, frame: aiFrame(body.imageBase64, decoded) }, request.signal)),
  ),
  // GET /api/moondream/capabilities → {segmentation}: whether the studio can offer gallery edits before one is tried.
  capabilities: handle(api.moondream.capabilities, async ({ services }) => ({ segmentation: services.vision.provider.segmentSupport() })),
} satisfies ResourceHandlers<typeof api.moondream>;
