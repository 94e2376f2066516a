// The prerendered pages' cache on its own, with a render function standing in for React Router and a clock of
// our own: one render per origin and path (concurrent first requests share it), again after local midnight,
// nothing kept from a failed render, and the flash cookie's requests left to the dynamic path.
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { prerenderedPages } from "./prerendered-pages";

let close: (() => void) | undefined;
afterEach(() => close?.());

async function serve(options: { status?: () => number; now: () => number }) {
  const renders: string[] = [];
  const app = express();
  app.use(
    prerenderedPages({
      render: async (request) => {
        renders.push(request.url);
        await new Promise((resolve) => setImmediate(resolve));
        return new Response(`page ${new URL(request.url).pathname} rendered at ${options.now()}`, {
          status: options.status?.() ?? 200,
          headers: { "Content-Type": "text/html; charset=utf-8" },
        });
      },
      security: { headers: [["X-Shared", "yes"]], hsts: ["Strict-Transport-Security", "max-age=1"] },
      checkHost: (_req, _res, next) => next(),
      now: options.now,
    }),
  );
  app.use((_req, res) => void res.send("dynamic"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => server.close();
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { headers });
    return { text: await response.text(), etag: response.headers.get("etag"), shared: response.headers.get("x-shared") };
  };
  return { renders, get, base };
}

describe("prerendered pages' cache", () => {
  it("renders a page once per origin, concurrent first requests included", async () => {
    const { renders, get, base } = await serve({ now: () => new Date(2026, 0, 10, 12).getTime() });
    const first = await Promise.all(Array.from({ length: 5 }, () => get("/pricing")));
    expect(new Set(first.map((answer) => answer.text)).size).toBe(1);
    expect(first[0]!.etag).toBeTruthy();
    expect(first[0]!.shared).toBe("yes");
    await get("/pricing");
    expect(renders).toEqual([`${base}/pricing`]);
    await get("/pricing", { "x-forwarded-host": "ignored.example" }); // not a trusted proxy here
    expect(renders).toHaveLength(1);
    expect((await get("/studio")).text).toBe("dynamic");
  });

  it("renders again after local midnight (the EULA shows today's date)", async () => {
    let now = new Date(2026, 0, 10, 23, 59).getTime();
    const { renders, get } = await serve({ now: () => now });
    const before = await get("/eula");
    now = new Date(2026, 0, 10, 23, 59, 59).getTime();
    expect((await get("/eula")).text).toBe(before.text);
    now = new Date(2026, 0, 11, 0, 0, 1).getTime();
    const after = await get("/eula");
    expect(after.text).not.toBe(before.text);
    expect(after.etag).not.toBe(before.etag);
    expect(renders).toHaveLength(2);
  });

  it("keeps nothing from a render that is not a 200, and leaves requests with a toast to the dynamic path", async () => {
    let status = 500;
    const { renders, get } = await serve({ now: () => 0, status: () => status });
    expect((await get("/about")).text).toBe("dynamic");
    status = 200;
    expect((await get("/about")).etag).toBeTruthy();
    expect(renders).toHaveLength(2);
    expect((await get("/about", { cookie: "theme=dark; fw_flash=abc" })).text).toBe("dynamic");
    expect((await get("/about", { cookie: "not_fw_flash=abc" })).etag).toBeTruthy();
    expect(renders).toHaveLength(2);
  });
});
