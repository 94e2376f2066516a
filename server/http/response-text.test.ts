import { describe, expect, it } from "vitest";
import { responseFields, responseText, textResponse } from "./response-text";

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

describe("textResponse with its header fields as a record", () => {
  const fields = { "x-total-count": "3", "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };
  const listed = () => textResponse(text, { status: 200, headers: fields });
  const expected = () => new Response(text, { status: 200, headers: { ...fields, "content-length": String(Buffer.byteLength(text)) } });

  it("lists them as the Headers of a Response made with them would, until its headers are read", () => {
    const ours = listed();
    expect(responseFields(ours)).toEqual([...expected().headers]);
    expect([...ours.headers]).toEqual([...expected().headers]);
    expect(responseFields(ours)).toBeUndefined(); // now in its Headers, where a change would be made
    expect(responseFields(made())).toBeUndefined();
    expect(responseFields(plain())).toBeUndefined();
  });

  it("reads, clones and changes as that Response does", async () => {
    expect(await listed().json()).toEqual(JSON.parse(text));
    const copy = listed().clone();
    expect([...copy.headers]).toEqual([...expected().headers]);
    expect(await copy.text()).toBe(text);
    const changed = listed();
    changed.headers.set("x-total-count", "4");
    expect(changed.headers.get("x-total-count")).toBe("4");
    expect(changed.headers.get("content-type")).toBe(fields["content-type"]);
  });
});
