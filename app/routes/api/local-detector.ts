// The localDetector operations' handlers (app/schemas/operations/local-detector.ts), one per catalogue entry.
import { MAX_DETECTOR_MODEL_BYTES } from "#app/schemas/local-detector";
import { db } from "#db/index";
import type { ResourceHandlers } from "#server/http/api";
import { handle } from "#server/http/operation";
import { activeModelResponse, deleteDetectorModel, getLocalDetector, listDetectorModels, setActiveDetector, uploadDetectorModel } from "#server/local-detector/service";
import { api } from "../../schemas/operations/index";

const model = { resource: "Detector model" };

export const localDetector = {
  // GET /api/local-detector → what the studios run: the built-in detector or the active uploaded model.
  get: handle(api.localDetector.get, async () => getLocalDetector(db())),
  // GET /api/local-detector/model?v=<sha256> → the active model's bytes, streamed from the blob store.
  model: handle(api.localDetector.model, async ({ request, query, services }) => activeModelResponse(db(), services.blobs, request, query.v)),
  // GET /api/admin/detector-models → every upload, newest first. Admins only.
  listModels: handle(api.localDetector.listModels, async () => listDetectorModels(db())),
  // POST /api/admin/detector-models (multipart) → 201 with the model once ONNX Runtime has checked it. Admins only.
  uploadModel: handle(api.localDetector.uploadModel, { bodyLimit: MAX_DETECTOR_MODEL_BYTES }, async ({ user, form, services }) =>
    uploadDetectorModel(db(), services.blobs, user.id, form),
  ),
  // PUT /api/admin/local-detector {modelId} → the studios' detector now (null: the built-in one). Admins only.
  setActive: handle(api.localDetector.setActive, async ({ body }) => setActiveDetector(db(), body.modelId)),
  // DELETE /api/admin/detector-models/:id → gone with its file; the built-in detector if it was active. Admins only.
  removeModel: handle(api.localDetector.removeModel, model, async ({ params, services }) => {
    await deleteDetectorModel(db(), services.blobs, params.id);
  }),
} satisfies ResourceHandlers<typeof api.localDetector>;
