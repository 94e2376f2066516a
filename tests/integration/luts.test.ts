// LUTs over HTTP: the built-in presets, uploads validated by the WASM parser, and their rules.
import { describe, expect, it } from "vitest";
import { LUT_3D_MAX_SIZE } from "#app/image/constants";
import { cubeText, roundTripLut } from "#app/image/test-data";
import { Client, signUpUser } from "../support/client";

function identityCube(size: number, header = ""): string {
  const rows: string[] = [];
  for (let b = 0; b < size; b++) for (let g = 0; g < size; g++) for (let r = 0; r < size; r++) rows.push(`${r / (size - 1)} ${g / (size - 1)} ${b / (size - 1)}`);
  return `${header}LUT_3D_SIZE ${size}\n${rows.join("\n")}\n`;
}

describe("LUTs", () => {
  it("gives every user the seven built-in presets once, first, without their .cube text", async () => {
    const { client } = await signUpUser();
    const [first, second] = await Promise.all([client.get("/api/luts"), client.get("/api/luts")]);
    const list = await first.json();
    expect((await second.json()).length).toBe(list.length);
    expect(list.map((l: { name: string }) => l.name)).toEqual(["Warm", "Cool", "Cinematic", "Vintage", "Black & White", "Vibrant", "Moody"]);
    expect(list.every((l: { builtin: boolean; size: number }) => l.builtin && l.size === 17)).toBe(true);
    expect(JSON.stringify(list)).not.toContain("LUT_3D_SIZE");
    const warm = await (await client.get(`/api/luts/${list[0].id}`)).json();
    expect(warm.lutData).toContain("LUT_3D_SIZE 17");
  });

  it("uploads a valid cube (CRLF, BOM, comments, TITLE, Resolve's input range) and lists it after the built-ins", async () => {
    const { client } = await signUpUser();
    const text = `\uFEFF# made in Resolve\r\nTITLE "Film Look"\r\nLUT_3D_INPUT_RANGE 0.0 1.0\r\n${identityCube(4).replace(/\n/g, "\r\n")}`;
    const response = await client.post("/api/luts", { name: "Film Look", lutData: text, size: 4 });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ name: "Film Look", size: 4, builtin: false });
    const list = await (await client.get("/api/luts")).json();
    expect(list.at(-1).id).toBe(created.id);
    expect((await (await client.get(`/api/luts/${created.id}`)).json()).lutData).toBe(text);
    expect((await client.request("DELETE", `/api/luts/${created.id}`)).status).toBe(204);
    expect((await client.get(`/api/luts/${created.id}`)).status).toBe(404);
  });

  it.each([
    ["too few values", identityCube(3).split("\n").slice(0, -5).join("\n"), /^Invalid LUT data: expected 81 values for 3x3x3 LUT, got \d+$/],
    ["garbage", "this is not a LUT at all", /Failed to parse LUT file|Invalid LUT data/],
    ["a cube past the size cap", `LUT_3D_SIZE ${LUT_3D_MAX_SIZE + 1}\n0 0 0\n`, new RegExp(`^LUT is ${LUT_3D_MAX_SIZE + 1}³; the largest supported is ${LUT_3D_MAX_SIZE}³$`)],
    ["Adobe's largest cube", "LUT_3D_SIZE 256\n0 0 0\n", new RegExp(`^LUT is 256³; the largest supported is ${LUT_3D_MAX_SIZE}³$`)],
    ["a shaper file with a row missing", "LUT_1D_SIZE 2\nLUT_3D_SIZE 2\n0 0 0\n", /^Invalid LUT data: expected 30 values for 2-point shaper and 2x2x2 LUT, got 3$/],
  ])("refuses %s with a 422 and stores nothing", async (_name, lutData, message) => {
    const { client } = await signUpUser();
    const before = (await (await client.get("/api/luts")).json()).length;
    const response = await client.post("/api/luts", { name: "Bad", lutData });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(message);
    expect((await (await client.get("/api/luts")).json()).length).toBe(before);
  });

  // As DaVinci Resolve and other tools write them: 65³ is Resolve's default export, the cap is ~58 MB of
  // text; a 1D LUT and a shaper file are graded everywhere too, so the server takes them.
  it.each([
    ["a 65³ cube", roundTripLut("3d", 65), 65],
    [`a ${LUT_3D_MAX_SIZE}³ cube (the largest supported)`, roundTripLut("3d", LUT_3D_MAX_SIZE), LUT_3D_MAX_SIZE],
    ["a 4096-point 1D LUT", roundTripLut("1d", 4096), 4096],
    ["a Resolve shaper file (1024-point shaper, then 33³)", roundTripLut("shaper", 1024), 33],
  ])("accepts %s and gives back the same text", { timeout: 240_000 }, async (_name, lut, size) => {
    const { client } = await signUpUser();
    const lutData = cubeText(lut, 6, "\r\n");
    const response = await client.post("/api/luts", { name: lut.name, lutData, size });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({ name: lut.name, size, builtin: false });
    const stored = await (await client.get(`/api/luts/${created.id}`)).json();
    expect(stored.lutData.length).toBe(lutData.length);
    expect(stored.lutData === lutData).toBe(true); // not toBe: a failure would print 58 MB
  });

  it("checks the declared size against the file, and the payload's fields", async () => {
    const { client } = await signUpUser();
    const mismatch = await client.post("/api/luts", { name: "x", lutData: identityCube(2), size: 33 });
    expect(mismatch.status).toBe(422);
    expect((await mismatch.json()).errors.size).toBeDefined();
    const blank = await client.post("/api/luts", { name: " ", lutData: identityCube(2) });
    expect(blank.status).toBe(400);
    expect((await blank.json()).errors.name).toEqual(["Name is required"]);
  });

  it("refuses to delete a built-in preset with 403", async () => {
    const { client } = await signUpUser();
    const [warm] = await (await client.get("/api/luts")).json();
    const response = await client.request("DELETE", `/api/luts/${warm.id}`);
    expect(response.status).toBe(403);
    expect((await response.json()).detail).toBe("Built-in LUT presets cannot be deleted");
    expect((await client.get(`/api/luts/${warm.id}`)).status).toBe(200);
  });

  it("answers 401 when anonymous", async () => {
    expect((await new Client().get("/api/luts")).status).toBe(401);
  });
});
