// POST /api/moondream/caption {imageData, storyMode} → {caption}: plain prose, "" for nothing new. With Accept:
// text/event-stream the caption streams as it is written: `chunk` events (the model's raw text), then `done`
// with {caption}, the normalised caption to show in its place (or `problem`).
import { db } from "../../../db/index";
import { apiRoute, json } from "../../../server/http/api";
import { authenticatedJson } from "../../../server/http/authenticated-json";
import { FRAME_BODY_LIMIT } from "../../../server/vision/frames";
import { caption } from "../../../server/vision/service";
import { textEventStream } from "../../../server/http/text-stream";
import { captionRequestSchema } from "../../schemas/vision";

export const loader = apiRoute({
  POST: async ({ request }) => {
    const call = await authenticatedJson(request, captionRequestSchema, FRAME_BODY_LIMIT);
    if (request.headers.get("accept")?.includes("text/event-stream")) {
      return textEventStream((onChunk) => caption(db(), call, request.signal, onChunk));
    }
    return json(await caption(db(), call, request.signal));
  },
});
export const action = loader;
