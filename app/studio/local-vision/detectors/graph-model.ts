// Loading a TFJS graph model from our own hashed assets, its weights streamed for the progress figure, built in
// memory (tfjs's own loader would fetch by unhashed names, or from a CDN).
import type { GraphModel, Tfjs } from "../tfjs-types";
import { type ModelJson, weightBytes } from "../model-manifest";

/** The model's own files, hashed assets of this origin: not the API, so not through app/lib/api. */
function fetchAsset(url: string): Promise<Response> {
  // eslint-disable-next-line no-restricted-globals -- a static asset, not an API call
  return fetch(url);
}

/** `expectedBytes` stands in for Content-Length, which a compressed answer (our server gzips assets) lacks. */
async function fetchWithProgress(url: string, expectedBytes: number, onProgress: (fraction: number) => void): Promise<ArrayBuffer> {
  const response = await fetchAsset(url);
  if (!response.ok || !response.body) throw new Error(`Could not load the detector model (${response.status})`);
  const encoded = response.headers.get("content-encoding");
  const total = (!encoded || encoded === "identity" ? Number(response.headers.get("content-length")) : 0) || expectedBytes;
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) onProgress(Math.min(received / total, 0.99)); // 1 once the model is ready
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}

/** The graph of `jsonUrl` with the weights of `weightsUrl`; `onProgress` gets 0..0.99 of the weights fetched. */
export async function loadGraphModel(tf: Tfjs, jsonUrl: string, weightsUrl: string, onProgress: (fraction: number) => void): Promise<GraphModel> {
  const manifest = (await (await fetchAsset(jsonUrl)).json()) as ModelJson;
  const weightData = await fetchWithProgress(weightsUrl, weightBytes(manifest), onProgress);
  const { weightsManifest, ...artifacts } = manifest;
  return tf.loadGraphModel(tf.io.fromMemory({ ...artifacts, weightSpecs: weightsManifest.flatMap((group) => group.weights), weightData }));
}
