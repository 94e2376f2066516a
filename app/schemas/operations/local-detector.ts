// The local-detector operations of the catalogue (see ./define.ts): which detector the studios run (built in, or an
// ONNX model an administrator uploaded), the model's bytes, and the administrators' uploads.
import { z } from "zod";
import { activeDetectorInputSchema, detectorModelSchema, detectorUploadSchema, localDetectorSchema, MAX_DETECTOR_MODEL_BYTES } from "../local-detector";
import { defineOperation, noContent } from "./define";

const tag = "Local detector";

export const localDetector = {
  get: defineOperation({
    method: "get",
    path: "/api/local-detector",
    summary: "The deployment's local detector: the built-in one, or the uploaded ONNX model the studios run (with its labels and where to fetch it)",
    tag,
    access: "user",
    success: { status: 200, schema: localDetectorSchema },
  }),
  model: defineOperation({
    method: "get",
    path: "/api/local-detector/model",
    summary: "The active ONNX model's bytes (404 while the built-in detector is active)",
    tag,
    access: "user",
    query: z.object({ v: z.string().max(64).optional().describe("the model's SHA-256: with it, the answer is cached for a year") }),
    success: {
      status: 200,
      schema: null,
      contentType: "application/octet-stream",
      description: "The .onnx file (strong ETag: its SHA-256; Cache-Control: private, max-age=31536000, immutable when v names it, else no-cache; 304 on If-None-Match)",
    },
    errors: [400, 404],
  }),
  listModels: defineOperation({
    method: "get",
    path: "/api/admin/detector-models",
    summary: "The uploaded detector models, newest first",
    tag,
    access: "admin",
    success: { status: 200, schema: z.array(detectorModelSchema) },
  }),
  uploadModel: defineOperation({
    method: "post",
    path: "/api/admin/detector-models",
    summary: `Upload an ONNX detector (multipart/form-data, at most ${MAX_DETECTOR_MODEL_BYTES / 1024 / 1024} MB): it is opened and run by ONNX Runtime first, and refused (422, errors.file or errors.labels) when it does not fit`,
    tag,
    access: "admin",
    form: detectorUploadSchema,
    success: { status: 201, schema: detectorModelSchema },
    errors: [400, 413, 415, 422, 507],
  }),
  setActive: defineOperation({
    method: "put",
    path: "/api/admin/local-detector",
    summary: "Make an uploaded model the deployment's local detector, or null for the built-in one",
    tag,
    access: "admin",
    body: activeDetectorInputSchema,
    success: { status: 200, schema: localDetectorSchema },
    errors: [400, 404],
  }),
  removeModel: defineOperation({
    method: "delete",
    path: "/api/admin/detector-models/{id}",
    summary: "Delete an uploaded model and its file; if it was active, the studios go back to the built-in detector",
    tag,
    access: "admin",
    success: noContent,
    errors: [404],
  }),
};
