// The worker API through real Comlink messaging (a MessageChannel between the client and the API
// the worker exposes): transfers, error revival and results identical to the in-process core.
import * as Comlink from "comlink";
import { MessageChannel, type MessagePort } from "node:worker_threads";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ImageCore } from "./core";
import { CubeParseError } from "./cube-parse-error";
import { createImageCoreClient, type ImageCoreClient } from "./image-core-client";
import { createImageCoreWorkerApi } from "./image-core-worker-api";
import { imageCoreForParsing, loadImageCore } from "./load-image-core";
import { cubeText, noiseFrame, randomLut, roundTripLut } from "./test-data";

let core: ImageCore;
beforeAll(async () => {
  core = await loadImageCore();
});

const open: Array<{ client: ImageCoreClient; ports: MessagePort[] }> = [];
afterEach(() => {
  for (const { ports } of open.splice(0)) for (const port of ports) port.close();
});

/** A client wired to the worker API the way the worker entry wires it, over a MessageChannel. */
function connect(loadCore: () => Promise<ImageCore> = loadImageCore): ImageCoreClient {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(createImageCoreWorkerApi(loadCore), port1 as unknown as Comlink.Endpoint);
  const client = createImageCoreClient(port2 as unknown as Comlink.Endpoint);
  open.push({ client, ports: [port1, port2] });
  return client;
}

describe("image core over Comlink", () => {
  it("parses a cube and revives parse errors as CubeParseError", async () => {
    const client = connect();
    const lut = randomLut(3, 1);
    const parsed = await client.parseCube(cubeText({ ...lut, name: "Remote" }));
    expect(parsed).toMatchObject({ name: "Remote", size: 3, kind: "3d" });
    expect(parsed.data).toBeInstanceOf(Float32Array);
    const failure = client.parseCube("LUT_3D_SIZE 2\n0 0 0\n");
    await expect(failure).rejects.toBeInstanceOf(CubeParseError);
    await expect(failure).rejects.toMatchObject({ message: "Invalid LUT data: expected 24 values for 2x2x2 LUT, got 3" });
  });

  it("a shaper file arrives with its shaper, and big texts are parsed by a core of their own", async () => {
    const chosen: number[] = [];
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(
      createImageCoreWorkerApi(loadImageCore, (length) => {
        chosen.push(length);
        return imageCoreForParsing(length);
      }),
      port1 as unknown as Comlink.Endpoint,
    );
    const client = createImageCoreClient(port2 as unknown as Comlink.Endpoint);
    open.push({ client, ports: [port1, port2] });
    const text = cubeText(roundTripLut("shaper", 64));
    const parsed = await client.parseCube(text);
    expect(chosen).toEqual([text.length]);
    expect(parsed.shaper?.data).toBeInstanceOf(Float32Array);
    expect(parsed.shaper?.data.length).toBe(64 * 3);
    expect(Array.from(parsed.data)).toEqual(Array.from(core.parseCube(text).data));
    // The shared core parses small files; a big one gets a core whose memory goes with it.
    expect(await imageCoreForParsing(text.length)).toBe(core);
    expect(await imageCoreForParsing(65 ** 3 * 80)).not.toBe(core);
  });

  it("grades a transferred frame exactly like the in-process core", async () => {
    const client = connect();
    const lut = randomLut(17, 4);
    const handle = await client.loadLut(lut);
    const frame = noiseFrame(64, 32, 9);
    const expected = frame.slice();
    core.applyLut(expected, lut, 0.6);
    const graded = await client.applyLut(frame, handle, 0.6);
    expect(frame.byteLength).toBe(0); // transferred, not copied
    expect(Buffer.from(graded.buffer).equals(Buffer.from(expected.buffer))).toBe(true);
    await client.releaseLut(handle);
    await expect(client.applyLut(noiseFrame(2, 2), handle)).rejects.toThrow(/unknown LUT handle/);
  });

  it("returns histograms, zebra masks and overlays with the frame handed back", async () => {
    const client = connect();
    const frame = noiseFrame(32, 18, 2);
    const expectedHistogram = core.histogram(frame, { mode: "rgb", log: true });
    const expectedMask = core.zebraMask(frame, { mode: "both", high: 200, low: 40 });
    const expectedOverlay = core.zebraOverlay(frame, { mode: "both", high: 200, low: 40, width: 32, phase: 3 });

    const first = await client.histogram(frame, { mode: "rgb", log: true });
    expect(first.histogram.counts).toEqual(expectedHistogram.counts);
    expect(first.histogram.levels).toEqual(expectedHistogram.levels);
    const second = await client.zebraMask(first.pixels, { mode: "both", high: 200, low: 40 });
    expect(second.mask).toEqual(expectedMask);
    const overlay = await client.zebraOverlay(second.pixels, { mode: "both", high: 200, low: 40, width: 32, phase: 3 });
    expect(overlay).toEqual(expectedOverlay);
  });

  it("answers calls sent before the WASM is ready, in order", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const client = connect(async () => {
      await gate; // a slow instantiation, as on a cold page load
      return core;
    });
    const calls = [client.parseCube(cubeText(randomLut(2, 1))), client.ready(), client.histogram(noiseFrame(4, 4), { mode: "luma" })];
    release();
    const [lut, , histogram] = await Promise.all(calls);
    expect(lut).toMatchObject({ size: 2 });
    expect(histogram).toMatchObject({ histogram: { mode: "luma" } });
  });
});
