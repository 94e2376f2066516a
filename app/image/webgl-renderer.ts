// The preview's fast path: each video frame drawn through a WebGL2 shader that grades it with the
// selected LUT (a 3D RGBA16F texture, tetrahedral, behind a per-code input table that holds a
// shaper and the domain, or a whole 1D LUT; see gpu-lut.ts), mixed by intensity, and paints zebra stripes.
// `create` returns null without WebGL2 or when the shaders fail to compile or link; the caller then
// uses the WASM worker path (cpu-renderer.ts), which draws the same picture, only slower.
import { ZEBRA_DEFAULT_STRIPE_PERIOD, ZEBRA_HIGH_RGB, ZEBRA_LOW_RGB } from "./constants";
import { forEachCubeSlab, INPUT_CODES, lutInputTable } from "./gpu-lut";
import { zebraThresholds, zebraWorkingSize } from "./options";
import { FRAGMENT_SHADER, VERTEX_SHADER } from "./shaders";
import type { ParsedLut, ZebraMode } from "./types";

export interface ZebraDraw {
  mode: ZebraMode;
  high: number;
  low: number;
  /** 0..1. */
  opacity: number;
  /** Stripe offset in working-grid cells (advanced 10 times a second to make them march). */
  phase: number;
}

export interface DrawOptions {
  /** 0..1; ignored without a LUT. */
  intensity: number;
  zebra: ZebraDraw | null;
}

export type FrameSource = TexImageSource;

const UNIFORMS = [
  "frame",
  "lut",
  "lutInput",
  "lutMode",
  "lutSize",
  "intensity",
  "zebraOn",
  "zebraGrid",
  "zebraHigh",
  "zebraLow",
  "zebraPeriod",
  "zebraPhase",
  "zebraOpacity",
  "zebraHighColour",
  "zebraLowColour",
] as const;
type UniformName = (typeof UNIFORMS)[number];

function compile(gl: WebGL2RenderingContext, type: number, source: string): WebGLShader | null {
  const shader = gl.createShader(type);
  if (!shader) return null;
  gl.shaderSource(shader, source);
  gl.compileShader(shader);
  if (gl.getShaderParameter(shader, gl.COMPILE_STATUS)) return shader;
  console.warn("Shader compile failed", gl.getShaderInfoLog(shader));
  gl.deleteShader(shader);
  return null;
}

function link(gl: WebGL2RenderingContext): WebGLProgram | null {
  const vertex = compile(gl, gl.VERTEX_SHADER, VERTEX_SHADER);
  const fragment = compile(gl, gl.FRAGMENT_SHADER, FRAGMENT_SHADER);
  const program = gl.createProgram();
  if (!vertex || !fragment || !program) return null;
  gl.attachShader(program, vertex);
  gl.attachShader(program, fragment);
  gl.bindAttribLocation(program, 0, "position");
  gl.linkProgram(program);
  gl.deleteShader(vertex);
  gl.deleteShader(fragment);
  if (gl.getProgramParameter(program, gl.LINK_STATUS)) return program;
  console.warn("Shader link failed", gl.getProgramInfoLog(program));
  gl.deleteProgram(program);
  return null;
}

/** Does this browser give us WebGL2 at all (without keeping a context)? */
export function webgl2Available(): boolean {
  if (typeof WebGL2RenderingContext === "undefined") return false;
  try {
    return document.createElement("canvas").getContext("webgl2") !== null;
  } catch {
    return false;
  }
}

const colour = (rgb: readonly [number, number, number]) => rgb.map((v) => v / 255) as [number, number, number];

/** The shader's lutMode: what the input table holds (see gpu-lut.ts). */
const LUT_OFF = 0;
const LUT_1D = 1;
const LUT_3D = 3;

export class WebGLPreviewRenderer {
  readonly kind = "webgl2";
  private lutMode = LUT_OFF;
  private lutSize = 0;

  private constructor(
    private readonly gl: WebGL2RenderingContext,
    private readonly program: WebGLProgram,
    private readonly uniforms: Record<UniformName, WebGLUniformLocation | null>,
    private readonly frameTexture: WebGLTexture,
    private readonly lutTexture: WebGLTexture,
    private readonly inputTexture: WebGLTexture,
    private readonly buffer: WebGLBuffer,
  ) {}

  /** Null (after logging why) when WebGL2 is missing or the shaders do not build. */
  static create(canvas: HTMLCanvasElement | OffscreenCanvas): WebGLPreviewRenderer | null {
    let gl: WebGL2RenderingContext | null = null;
    try {
      // Opaque and unpremultiplied: graded pixels leave the shader exactly as computed.
      gl = canvas.getContext("webgl2", {
        alpha: false,
        antialias: false,
        depth: false,
        stencil: false,
        premultipliedAlpha: false,
        preserveDrawingBuffer: false,
      }) as WebGL2RenderingContext | null;
    } catch {
      gl = null;
    }
    if (!gl) {
      console.warn("WebGL not supported");
      return null;
    }
    const program = link(gl);
    const frameTexture = gl.createTexture();
    const lutTexture = gl.createTexture();
    const inputTexture = gl.createTexture();
    const buffer = gl.createBuffer();
    if (!program || !frameTexture || !lutTexture || !inputTexture || !buffer) return null;
    const uniforms = Object.fromEntries(UNIFORMS.map((name) => [name, gl.getUniformLocation(program, name)])) as Record<UniformName, WebGLUniformLocation | null>;

    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);

    // Frame: LINEAR so the zebra grid samples (and a display-sized canvas) filter smoothly.
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, frameTexture);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    // LUT: NEAREST, because the shader fetches the four tetrahedron corners itself (hardware LINEAR
    // would be trilinear, and quantises its weights to 8 bits on some GPUs).
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_3D, lutTexture);
    for (const [name, value] of [
      [gl.TEXTURE_MIN_FILTER, gl.NEAREST],
      [gl.TEXTURE_MAG_FILTER, gl.NEAREST],
      [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_R, gl.CLAMP_TO_EDGE],
    ] as const) {
      gl.texParameteri(gl.TEXTURE_3D, name, value);
    }
    // Input table: 256×1 RGBA32F, read with texelFetch (float32 is not filterable, nor need it be).
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, inputTexture);
    for (const [name, value] of [
      [gl.TEXTURE_MIN_FILTER, gl.NEAREST],
      [gl.TEXTURE_MAG_FILTER, gl.NEAREST],
      [gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE],
      [gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE],
    ] as const) {
      gl.texParameteri(gl.TEXTURE_2D, name, value);
    }
    gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
    // Pixels as the page has them: no colour-space conversion or premultiplication on upload.
    gl.pixelStorei(gl.UNPACK_COLORSPACE_CONVERSION_WEBGL, gl.NONE);
    gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
    gl.pixelStorei(gl.UNPACK_FLIP_Y_WEBGL, false);

    gl.useProgram(program);
    gl.uniform1i(uniforms.frame, 0);
    gl.uniform1i(uniforms.lut, 1);
    gl.uniform1i(uniforms.lutInput, 2);
    gl.uniform1f(uniforms.zebraPeriod, ZEBRA_DEFAULT_STRIPE_PERIOD);
    gl.uniform3fv(uniforms.zebraHighColour, colour(ZEBRA_HIGH_RGB));
    gl.uniform3fv(uniforms.zebraLowColour, colour(ZEBRA_LOW_RGB));
    return new WebGLPreviewRenderer(gl, program, uniforms, frameTexture, lutTexture, inputTexture, buffer);
  }

  /**
   * Uploads a LUT: its per-code input table, and for a 3D LUT the cube as an RGBA16F 3D texture (red
   * fastest = x, as .cube orders it); null grades nothing.
   */
  setLut(lut: ParsedLut | null): void {
    const { gl } = this;
    if (!lut) {
      this.lutMode = LUT_OFF;
      return;
    }
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, this.inputTexture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA32F, INPUT_CODES, 1, 0, gl.RGBA, gl.FLOAT, lutInputTable(lut));
    if (lut.kind === "3d") {
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_3D, this.lutTexture);
      gl.texImage3D(gl.TEXTURE_3D, 0, gl.RGBA16F, lut.size, lut.size, lut.size, 0, gl.RGBA, gl.FLOAT, null);
      forEachCubeSlab(lut, (z, layers, texels) => gl.texSubImage3D(gl.TEXTURE_3D, 0, 0, 0, z, lut.size, lut.size, layers, gl.RGBA, gl.FLOAT, texels));
    }
    this.lutMode = lut.kind === "3d" ? LUT_3D : LUT_1D;
    this.lutSize = lut.size;
  }

  get hasLut(): boolean {
    return this.lutMode !== LUT_OFF;
  }

  /**
   * Draws one frame of `width`×`height` (the source's own size) into the canvas, which is resized
   * to match; the page scales the canvas element onto the picture's rectangle.
   */
  draw(source: FrameSource, width: number, height: number, options: DrawOptions): void {
    const { gl, uniforms } = this;
    const canvas = gl.canvas;
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    gl.viewport(0, 0, width, height);
    gl.useProgram(this.program);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.frameTexture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, source);
    gl.activeTexture(gl.TEXTURE1);
    gl.bindTexture(gl.TEXTURE_3D, this.lutTexture);
    gl.activeTexture(gl.TEXTURE2);
    gl.bindTexture(gl.TEXTURE_2D, this.inputTexture);

    const lutMode = options.intensity > 0 ? this.lutMode : LUT_OFF;
    gl.uniform1i(uniforms.lutMode, lutMode);
    if (lutMode !== LUT_OFF) {
      gl.uniform1f(uniforms.lutSize, this.lutSize);
      gl.uniform1f(uniforms.intensity, Math.min(1, Math.max(0, options.intensity)));
    }
    const { zebra } = options;
    gl.uniform1i(uniforms.zebraOn, zebra ? 1 : 0);
    if (zebra) {
      const grid = zebraWorkingSize(width, height);
      const { high, low } = zebraThresholds(zebra);
      gl.uniform2f(uniforms.zebraGrid, grid.width, grid.height);
      gl.uniform1f(uniforms.zebraHigh, high);
      gl.uniform1f(uniforms.zebraLow, low);
      gl.uniform1f(uniforms.zebraPhase, ((zebra.phase % ZEBRA_DEFAULT_STRIPE_PERIOD) + ZEBRA_DEFAULT_STRIPE_PERIOD) % ZEBRA_DEFAULT_STRIPE_PERIOD);
      // The CPU overlay carries the opacity as an 8-bit alpha: round the same way.
      gl.uniform1f(uniforms.zebraOpacity, Math.round(Math.min(1, Math.max(0, zebra.opacity)) * 255) / 255);
    }
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  }

  /** The last drawn frame as RGBA8, top row first (call in the same task as draw). */
  readPixels(): Uint8Array {
    const { gl } = this;
    const { width, height } = gl.canvas;
    const bottomUp = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, bottomUp);
    const rows = new Uint8Array(bottomUp.length);
    const stride = width * 4;
    for (let y = 0; y < height; y++) rows.set(bottomUp.subarray((height - 1 - y) * stride, (height - y) * stride), y * stride);
    return rows;
  }

  dispose(): void {
    const { gl } = this;
    gl.deleteTexture(this.frameTexture);
    gl.deleteTexture(this.lutTexture);
    gl.deleteTexture(this.inputTexture);
    gl.deleteBuffer(this.buffer);
    gl.deleteProgram(this.program);
  }
}
