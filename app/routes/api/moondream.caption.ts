// POST /api/moondream/caption {imageData, storyMode} → {caption}: plain prose, "" for nothing new. With Accept:
// text/event-stream the caption streams as it is written: `chunk` events (the model's raw text), then `done`
// with {caption}, the normalised caption to show in its place (or `problem`).
import { db } from "#db/index";
import { FRAME_BODY } from "#server/vision/frames";
import { caption } from "#server/vision/service";
import { textEventStream } from "#server/http/text-stream";
import { apiRoute } from "#server/http/api";
import { aiFrame } from "#server/http/frame-input";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.moondream.caption, FRAME_BODY, async ({ request, session, body, decoded }) => {
    if (request.headers.get("accept")?.includes("text/event-stream")) {
      return textEventStream((onChunk) => caption(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal, onChunk));
    }
    return caption(db(), { session, input: body, frame: aiFrame(body.imageData, decoded) }, request.signal);
  }),
});
export const action = loader;
