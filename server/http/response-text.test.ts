import { describe, expect, it } from "vitest";
import { responseText, textResponse } from "./response-text";

const text = JSON.stringify({ name: "Zoë", note: "ünïcode 📷" });
const made = (headers: Record<string, string> = { "Content-Type": "application/json" }, status = 201) =>
  textResponse(text, { status, statusText: "Made", headers: new Headers(headers) });
const plain = (headers: Record<string, string> = { "Content-Type": "application/json" }, status = 201) =>
  new Response(text, { status, statusText: "Made", headers: new Headers({ ...headers, "Content-Length": String(Buffer.byteLength(text)) }) });

describe("textResponse", () => {
  it("is a Response that answers every read as a Response made from the same string does", async () => {
    for (const read of ["text", "json", "arrayBuffer", "bytes", "blob"] as const) {
      const [ours, theirs] = [made(), plain()];
      expect(ours).toBeInstanceOf(Response);
      expect(ours.bodyUsed).toBe(false);
      const [a, b] = [await ours[read](), await theirs[read]()];
      expect(a instanceof Blob ? await a.text() : a, read).toEqual(b instanceof Blob ? await b.text() : b);
      expect(ours.bodyUsed, read).toBe(true);
      await expect(ours.text(), `${read} twice`).rejects.toThrow(TypeError);
    }
  });

  it("keeps status, headers (with the byte length, and Response's type for untyped text) and the string itself", () => {
    const ours = made();
    expect([ours.status, ours.statusText, ours.ok]).toEqual([201, "Made", true]);
    expect(Object.fromEntries(ours.headers)).toEqual(Object.fromEntries(plain().headers));
    expect(ours.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(made({}).headers.get("content-type")).toBe(plain({}).headers.get("content-type"));
    expect(responseText(ours)).toBe(text);
    expect(responseText(plain())).toBeUndefined();
  });

  it("gives a body stream and clones that read alike", async () => {
    const ours = made();
    const copy = ours.clone();
    expect(await new Response(ours.body).text()).toBe(text);
    expect(ours.bodyUsed).toBe(true);
    expect(await copy.json()).toEqual(JSON.parse(text));
    expect(responseText(ours)).toBe(text); // what the request handler writes, however the body was read
  });
});
