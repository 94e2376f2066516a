// The preview renderers on the harness page: the WebGL2 shader and the WASM-worker fallback, each
// drawing a given RGBA frame so tests can compare their pixels with the core in Node, and the
// benchmark can time the WebGL2 preview at 1080p. Driven through `window.imageRendererHarness`.
import { CpuPreviewRenderer } from "#app/image/cpu-renderer";
import { HistogramSampler } from "#app/image/histogram-view";
import type { ImageCoreClient } from "#app/image/image-core-client";
import { cubeText, roundTripLut, type RoundTripCase } from "#app/image/test-data";
import { webgl2Available, WebGLPreviewRenderer, type ZebraDraw } from "#app/image/webgl-renderer";

function sourceCanvas(pixels: number[], width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  canvas.getContext("2d")!.putImageData(new ImageData(new Uint8ClampedArray(pixels), width, height), 0, 0);
  return canvas;
}

export function rendererHarness(client: ImageCoreClient) {
  return {
    webgl2Available,
    /** The shader's output for the frame, top row first; null when WebGL2 is unavailable. */
    async webgl(cube: string, pixels: number[], width: number, height: number, intensity: number, zebra: ZebraDraw | null) {
      const renderer = WebGLPreviewRenderer.create(document.createElement("canvas"));
      if (!renderer) return null;
      renderer.setLut(await client.parseCube(cube));
      renderer.draw(sourceCanvas(pixels, width, height), width, height, { intensity, zebra });
      const result = Array.from(renderer.readPixels());
      renderer.dispose();
      return result;
    },
    /**
     * The shader's output for a round-trip LUT (tests/…/lut-round-trip): its .cube text written here,
     * parsed by the worker and uploaded, as a user's file would be. Also the time each step took.
     */
    async webglRoundTrip(kind: RoundTripCase, size: number, pixels: number[], width: number, height: number, intensity: number) {
      const canvas = document.createElement("canvas");
      const renderer = WebGLPreviewRenderer.create(canvas);
      if (!renderer) return null;
      const gl = canvas.getContext("webgl2")!;
      let started = performance.now();
      const text = cubeText(roundTripLut(kind, size));
      const ms = { write: performance.now() - started, parse: 0, upload: 0, draw: 0 };
      started = performance.now();
      const lut = await client.parseCube(text, `${kind}.cube`);
      ms.parse = performance.now() - started;
      started = performance.now();
      renderer.setLut(lut);
      gl.finish();
      ms.upload = performance.now() - started;
      started = performance.now();
      renderer.draw(sourceCanvas(pixels, width, height), width, height, { intensity, zebra: null });
      const result = Array.from(renderer.readPixels());
      ms.draw = performance.now() - started;
      const glError = gl.getError();
      renderer.dispose();
      return { pixels: result, ms, glError, max3dTextureSize: gl.getParameter(gl.MAX_3D_TEXTURE_SIZE) as number, textLength: text.length };
    },
    /** The fallback's graded frame as painted on its canvas. */
    async cpu(cube: string, pixels: number[], width: number, height: number, intensity: number) {
      const renderer = new CpuPreviewRenderer(client);
      await renderer.setLut(await client.parseCube(cube));
      const target = document.createElement("canvas");
      await renderer.drawGraded(sourceCanvas(pixels, width, height), width, height, intensity, target);
      renderer.dispose();
      return Array.from(target.getContext("2d")!.getImageData(0, 0, width, height).data);
    },
    /**
     * Frames per second of the WebGL2 preview at width×height with LUT + zebra every frame and the
     * histogram 10 times a second, for `ms` milliseconds of requestAnimationFrame-paced drawing
     * (each frame a new texture upload, then a 1×1 readback so the GPU work is really done).
     */
    async webglFps(cube: string, width: number, height: number, ms: number, overlays = true) {
      const canvas = document.createElement("canvas");
      canvas.style.width = "960px";
      document.body.append(canvas);
      const renderer = WebGLPreviewRenderer.create(canvas);
      if (!renderer) return null;
      renderer.setLut(overlays ? await client.parseCube(cube) : null);
      const sources = [0, 1].map((seed) => {
        const pixels = new Uint8ClampedArray(width * height * 4);
        for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761 + seed * 97) >>> 24;
        return sourceCanvas(Array.from(pixels), width, height);
      });
      const sampler = new HistogramSampler(client);
      const gl = canvas.getContext("webgl2")!;
      const probe = new Uint8Array(4);
      let frames = 0;
      let lastHistogram = -Infinity;
      let histograms = 0;
      const started = performance.now();
      await new Promise<void>((resolve) => {
        const tick = (now: number) => {
          const source = sources[frames % 2]!;
          renderer.draw(source, width, height, { intensity: 0.9, zebra: overlays ? { mode: "both", high: 230, low: 20, opacity: 0.75, phase: frames } : null });
          gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, probe);
          frames++;
          if (overlays && now - lastHistogram >= 100) {
            lastHistogram = now;
            void sampler.sample(source, "rgb", true).then(() => histograms++);
          }
          if (performance.now() - started < ms) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      const seconds = (performance.now() - started) / 1000;
      renderer.dispose();
      canvas.remove();
      return { fps: frames / seconds, frames, histograms };
    },
    /** The same 1080p grading through the WASM-worker fallback: frames per second, one in flight. */
    async cpuFps(cube: string, width: number, height: number, ms: number) {
      const renderer = new CpuPreviewRenderer(client);
      await renderer.setLut(await client.parseCube(cube));
      const pixels = new Uint8ClampedArray(width * height * 4);
      for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
      const source = sourceCanvas(Array.from(pixels), width, height);
      const target = document.createElement("canvas");
      let frames = 0;
      const started = performance.now();
      while (performance.now() - started < ms) {
        await renderer.drawGraded(source, width, height, 0.9, target);
        frames++;
      }
      renderer.dispose();
      return { fps: frames / ((performance.now() - started) / 1000), frames };
    },
  };
}
