// The multipart reader: real bodies as browsers and undici encode them, split where they lie, and refused when too
// large or unreadable.
import { describe, expect, it } from "vitest";
import { ProblemError } from "../errors";
import { readMultipart } from "./multipart";

const URL = "http://127.0.0.1/upload";

/** A body split into small chunks, as a socket delivers it. */
function chunked(bytes: Uint8Array, size = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

async function encoded(form: FormData): Promise<{ body: Uint8Array; type: string }> {
  const request = new Request(URL, { method: "POST", body: form });
  return { body: new Uint8Array(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

function request(body: Uint8Array, type: string, length: number | null = body.length): Request {
  const headers: Record<string, string> = { "content-type": type };
  if (length !== null) headers["content-length"] = String(length);
  return new Request(URL, { method: "POST", headers, body: chunked(body), duplex: "half" } as RequestInit);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "read",
    (error: unknown) => (error instanceof ProblemError ? `${error.status} ${error.message}` : `crashed: ${String(error)}`),
  );

describe("readMultipart", () => {
  it("reads text fields and a file, with or without a declared length, the file's bytes exactly", async () => {
    const model = new Uint8Array(1000).map((_, index) => index % 251);
    const form = new FormData();
    form.append("name", "Forklifts – v2 ✓");
    form.append("labels", "person\r\nforklift\n");
    form.append("file", new Blob([model]), 'my "best".onnx');
    const { body, type } = await encoded(form);
    for (const length of [body.length, null]) {
      const values = await readMultipart(request(body, type, length), 10_000);
      expect(values.name).toBe("Forklifts – v2 ✓");
      // Form encoding sends every line break as CRLF.
      expect(values.labels).toBe("person\r\nforklift\r\n");
      const file = values.file as { filename: string; bytes: Uint8Array };
      expect(file.filename).toBe('my "best".onnx'.replace(/"/g, "%22"));
      expect(Buffer.from(file.bytes).equals(Buffer.from(model))).toBe(true);
    }
  });

  it("refuses a body over the limit with 413: by its declared length, or while reading one that declares none", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(5000)]), "big.onnx");
    const { body, type } = await encoded(form);
    expect(await refusal(readMultipart(request(body, type), 4096))).toBe("413 The upload is larger than 0 MB");
    expect(await refusal(readMultipart(request(body, type, null), 4096))).toBe("413 The upload is larger than 0 MB");
    // A body longer than it declared is refused too, not written past its buffer.
    expect(await refusal(readMultipart(request(body, type, 100), 10_000))).toMatch(/^413 /);
  });

  it("refuses what is not a readable form: 415 for another content type, 400 for a broken body", async () => {
    const text = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalue');
    expect(await refusal(readMultipart(request(text, "application/json"), 1000))).toBe("415 Send the upload as multipart/form-data");
    expect(await refusal(readMultipart(request(text, "multipart/form-data; boundary=b"), 1000))).toBe(
      "400 The form could not be read: the last part is not closed by the boundary",
    );
    expect(await refusal(readMultipart(request(text, "multipart/form-data; boundary=other"), 1000))).toBe("400 The form could not be read: it does not start with its boundary");
    const closed = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\nvalue\r\n--b--\r\n');
    expect(await readMultipart(request(closed, 'multipart/form-data; boundary="b"'), 1000)).toEqual({ x: "value" });
  });
});
