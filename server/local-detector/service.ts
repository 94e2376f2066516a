// The deployment's local detector: the built-in one, or an ONNX model an administrator uploaded (issue 29). An upload
// is opened and run by ONNX Runtime (server/local-detector/onnx-detector.ts) before anything is kept; the bytes go to
// the blob store, the row keeps what the check read off the model, and at most one model is the studios' at a time.
// Callers of the admin functions have checked the admin role (the operations' `access: "admin"`).
import { createHash, randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { BUILT_IN_DETECTOR, type DetectorModel, type DetectorUpload, type LocalDetector } from "#app/schemas/local-detector";
import type { DB } from "#db/index";
import { notFound, ProblemError } from "../errors";
import { checkOnnxDetector, OnnxModelProblem } from "./onnx-detector";
import type { PoolModel } from "./pool/types";
import { blobKeys, discardBlobs, putThenRecord, type BlobStore } from "../storage/blob-store";
import * as q from "./queries";

const MODEL_NOT_FOUND = "Detector model";

function toModel(row: q.DetectorModelRow): DetectorModel {
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    pixelScaling: row.pixel_scaling,
    labels: row.labels,
    inputWidth: row.input_width,
    inputHeight: row.input_height,
    sha256: row.sha256,
    bytes: row.byte_size,
    uploadedAt: row.created_at.toISOString(),
    uploadedBy: row.username,
    active: row.active,
  };
}

function toLocalDetector(row: q.DetectorModelRow | undefined): LocalDetector {
  if (!row) return { ...BUILT_IN_DETECTOR, labels: [...BUILT_IN_DETECTOR.labels] };
  const { uploadedAt: _at, uploadedBy: _by, active: _active, ...model } = toModel(row);
  return { kind: "onnx", ...model, modelUrl: `/api/local-detector/model?v=${row.sha256}` };
}

/** What the studios run now. */
export async function getLocalDetector(db: DB): Promise<LocalDetector> {
  return toLocalDetector(await q.findActiveModel(db));
}

/** The active model's identity ("built-in", or its SHA-256): the server's detector threads reload when it changes. */
export async function activeDetectorVersion(db: DB): Promise<string> {
  return (await q.findActiveModel(db))?.sha256 ?? "built-in";
}

/**
 * What the server's detector pool runs (./pool/): the active model with its bytes, read from the blob store once for
 * all the pool's threads, or the built-in one. A model whose file is missing is a 404 naming it.
 */
export async function activePoolModel(db: DB, blobs: BlobStore): Promise<PoolModel> {
  const row = await q.findActiveModel(db);
  if (!row) return { kind: "built-in" };
  const bytes = await blobs.get(row.blob_key);
  if (!bytes) throw notFound("Detector model file");
  return { kind: "onnx", name: row.name, format: row.format, pixelScaling: row.pixel_scaling, labels: row.labels, bytes: new Uint8Array(bytes) };
}

export async function listDetectorModels(db: DB): Promise<DetectorModel[]> {
  return (await q.listModels(db)).map(toModel);
}

/** The problem's field: the label list when it is what is wrong (empty, too long), else the file. */
function modelProblem(error: OnnxModelProblem): ProblemError {
  // describeOnnxDetector's messages about the list itself start so; a list that does not match the model's
  // outputs is the file's problem as much as the list's, and shows under the file with the shapes it names.
  const field = error.message.startsWith("The label list") ? "labels" : "file";
  return new ProblemError(422, error.message, { errors: { [field]: [error.message] } });
}

function duplicateLabel(labels: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const label of labels) {
    if (seen.has(label)) return label;
    seen.add(label);
  }
  return null;
}

/**
 * Checks the model with ONNX Runtime and keeps it: the blob first, then the row (putThenRecord), so a refused model
 * leaves nothing behind and no row points at a missing file. `activate` makes it the studios' detector at once.
 */
export async function uploadDetectorModel(db: DB, blobs: BlobStore, uploadedBy: string, upload: DetectorUpload): Promise<DetectorModel> {
  const duplicate = duplicateLabel(upload.labels);
  if (duplicate !== null) {
    const message = `The label list names "${duplicate}" twice; each class id needs its own name.`;
    throw new ProblemError(422, message, { errors: { labels: [message] } });
  }
  const bytes = upload.file.bytes;
  let spec;
  try {
    ({ spec } = await checkOnnxDetector(bytes, { format: upload.format, labels: upload.labels, pixelScaling: upload.pixelScaling }));
  } catch (error) {
    if (error instanceof OnnxModelProblem) throw modelProblem(error);
    throw error;
  }
  const id = randomUUID();
  const key = blobKeys.detectorModel(id);
  await putThenRecord(
    blobs,
    [[key, bytes]],
    () =>
      db.transaction().execute(async (trx) => {
        await q.insertModel(trx, {
          id,
          name: upload.name,
          format: upload.format,
          pixel_scaling: upload.pixelScaling,
          labels: upload.labels,
          input_width: spec.inputWidth,
          input_height: spec.inputHeight,
          byte_size: bytes.byteLength,
          sha256: createHash("sha256").update(bytes).digest("hex"),
          blob_key: key,
          uploaded_by: uploadedBy,
        });
        if (upload.activate) await q.setActiveModel(trx, id);
      }),
    () => q.modelExists(db, id),
  );
  const row = await q.findModel(db, id);
  if (!row) throw notFound(MODEL_NOT_FOUND);
  return toModel(row);
}

/** Makes an uploaded model the studios' detector, or (null) the built-in one; 404 for a model that is not there. */
export async function setActiveDetector(db: DB, modelId: string | null): Promise<LocalDetector> {
  const found = await db.transaction().execute((trx) => q.setActiveModel(trx, modelId));
  if (!found) throw notFound(MODEL_NOT_FOUND);
  return getLocalDetector(db);
}

/** Deletes the row, then its file; when it was active the studios are back on the built-in detector. */
export async function deleteDetectorModel(db: DB, blobs: BlobStore, id: string): Promise<void> {
  const row = await q.deleteModel(db, id);
  if (!row) throw notFound(MODEL_NOT_FOUND);
  await discardBlobs(blobs, [row.blob_key]);
}

/**
 * The active model's bytes as a response: streamed from the blob store, with its SHA-256 as a strong ETag; cached for
 * a year when the URL names that version (`?v=`), revalidated otherwise. 404 while the built-in detector is active.
 */
export async function activeModelResponse(db: DB, blobs: BlobStore, request: Request, version: string | undefined): Promise<Response> {
  const row = await q.findActiveModel(db);
  if (!row) throw new ProblemError(404, "No uploaded detector model is active: the studios use the built-in detector");
  const etag = `"${row.sha256}"`;
  const headers = new Headers({
    ETag: etag,
    "Cache-Control": version === row.sha256 ? "private, max-age=31536000, immutable" : "private, no-cache",
    "Content-Type": "application/octet-stream",
    "X-Content-Type-Options": "nosniff",
  });
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim() === etag)) return new Response(null, { status: 304, headers });
  const stream = await blobs.stream(row.blob_key);
  if (!stream) throw notFound("Detector model file");
  headers.set("Content-Length", String(row.byte_size));
  return new Response(Readable.toWeb(stream) as ReadableStream<Uint8Array>, { status: 200, headers });
}
