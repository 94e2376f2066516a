// A TFJS graph model's JSON (model.json), as far as the detector reads it: the weight manifest, to size the
// weight file before it arrives (a compressed answer has no Content-Length) and to build the model in memory.
export interface ModelJson {
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
  [key: string]: unknown;
}

export interface WeightSpec {
  shape: number[];
  dtype: string;
  quantization?: { dtype: string };
}

const BYTES_PER_VALUE: Record<string, number> = { float32: 4, int32: 4, uint16: 2, float16: 2, uint8: 1, bool: 1 };

/** The weight file's size as the manifest describes it (4,030,290 bytes for CenterNet: float16 and int32). */
export function weightBytes(manifest: ModelJson): number {
  let bytes = 0;
  for (const weight of manifest.weightsManifest.flatMap((group) => group.weights)) {
    bytes += weight.shape.reduce((product, size) => product * size, 1) * (BYTES_PER_VALUE[weight.quantization?.dtype ?? weight.dtype] ?? 4);
  }
  return bytes;
}
