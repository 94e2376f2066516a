// Loading a TFJS graph model from our own hashed assets, its weights streamed for the progress figure, built in
// memory (tfjs's own loader would fetch by unhashed names, or from a CDN).
import type { GraphModel, Tfjs } from "../tfjs-types";
import { type ModelJson, weightBytes } from "../model-manifest";
import { fetchAsset, fetchWithProgress } from "./fetch-progress";

/** The graph of `jsonUrl` with the weights of `weightsUrl`; `onProgress` gets 0..0.99 of the weights fetched. */
export async function loadGraphModel(tf: Tfjs, jsonUrl: string, weightsUrl: string, onProgress: (fraction: number) => void): Promise<GraphModel> {
  const manifest = (await (await fetchAsset(jsonUrl)).json()) as ModelJson;
  const weightData = await fetchWithProgress(weightsUrl, weightBytes(manifest), onProgress);
  const { weightsManifest, ...artifacts } = manifest;
  return tf.loadGraphModel(tf.io.fromMemory({ ...artifacts, weightSpecs: weightsManifest.flatMap((group) => group.weights), weightData }));
}
