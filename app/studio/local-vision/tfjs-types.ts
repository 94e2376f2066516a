// The part of tfjs the detector worker uses, typed here: human's bundled tfjs is typed `any`. The server runs tfjs's
// own packages (server/local-detector/built-in-detector.ts), which fit these types; the browser keeps human's build.
export interface Tensor {
  data(): Promise<ArrayLike<number>>;
  array(): Promise<unknown>;
  dispose(): void;
}

export interface GraphModel {
  execute(input: Tensor, output: string): Tensor;
  dispose(): void;
}

export interface Tfjs {
  setWasmPaths(paths: Record<string, string>): void;
  setBackend(name: string): Promise<boolean>;
  ready(): Promise<void>;
  loadGraphModel(source: unknown): Promise<GraphModel>;
  io: { fromMemory(artifacts: Record<string, unknown>): unknown };
  browser: { fromPixels(pixels: ImageBitmap): Tensor };
  image: { resizeBilinear(image: Tensor, size: [number, number]): Tensor };
  pad(tensor: Tensor, paddings: Array<[number, number]>, constantValue?: number): Tensor;
  tidy<T extends Tensor>(fn: () => T): T;
  cast(tensor: Tensor, dtype: "float32"): Tensor;
  expandDims(tensor: Tensor, axis: number): Tensor;
  zeros(shape: number[]): Tensor;
  dispose(tensors: Tensor | Tensor[]): void;
}
