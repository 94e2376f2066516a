// LUTs over HTTP: the built-in presets, uploads validated by the WASM parser, and their rules.
import { describe, expect, it } from "vitest";
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
    ["a 1D LUT", "LUT_1D_SIZE 2\n0 0 0\n1 1 1\n", /Only 3D LUTs/],
    ["a size past 64", "LUT_3D_SIZE 65\n0 0 0\n", /Invalid LUT data|Failed to parse LUT file|between 2 and 64/],
  ])("refuses %s with a 422 and stores nothing", async (_name, lutData, message) => {
    const { client } = await signUpUser();
    const before = (await (await client.get("/api/luts")).json()).length;
    const response = await client.post("/api/luts", { name: "Bad", lutData });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(message);
    expect((await (await client.get("/api/luts")).json()).length).toBe(before);
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
