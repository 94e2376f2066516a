// A detector model's bytes fetched with a progress figure (the studio shows how much of the model has arrived).
/** The model's own files: hashed assets of this origin, or an uploaded model's bytes (a file, not an API call), so not through app/lib/api. */
export function fetchAsset(url: string): Promise<Response> {
  // eslint-disable-next-line no-restricted-globals -- a static asset, not an API call
  return fetch(url);
}

/** `expectedBytes` stands in for Content-Length, which a compressed answer (our server gzips assets) lacks. */
export async function fetchWithProgress(url: string, expectedBytes: number, onProgress: (fraction: number) => void): Promise<ArrayBuffer> {
  const response = await fetchAsset(url);
  if (!response.ok || !response.body) throw new Error(`Could not load the detector model (${response.status})`);
  const encoded = response.headers.get("content-encoding");
  const total = (!encoded || encoded === "identity" ? Number(response.headers.get("content-length")) : 0) || expectedBytes;
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    if (total) onProgress(Math.min(received / total, 0.99)); // 1 once the model is ready
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes.buffer;
}
