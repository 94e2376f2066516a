import { createServer, IncomingMessage, ServerResponse, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expressMessages } from "./express-messages";

let server: Server;
let base = "";
const seen: Array<{ requestReady: boolean; responseReady: boolean }> = [];

beforeAll(async () => {
  const app = express();
  app.get("/echo", (req, res) => {
    res.json({ ip: req.ip, path: req.path, query: req.query, app: req.app === app, nodeRequest: req instanceof IncomingMessage, nodeResponse: res instanceof ServerResponse });
  });
  const messages = expressMessages(app);
  server = createServer(messages, (req, res) => {
    // What Express would set them to, before it runs: already there, so its setPrototypeOf changes nothing.
    seen.push({ requestReady: Object.getPrototypeOf(req) === app.request, responseReady: Object.getPrototypeOf(res) === app.response });
    app(req, res);
  }).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => void server.close());

describe("expressMessages", () => {
  it("makes every request and response with the app's prototypes, Express's helpers working as before", async () => {
    for (let i = 0; i < 3; i++) {
      const response = await fetch(`${base}/echo?n=${i}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ip: "127.0.0.1", path: "/echo", query: { n: String(i) }, app: true, nodeRequest: true, nodeResponse: true });
    }
    expect(seen).toEqual(Array.from({ length: 3 }, () => ({ requestReady: true, responseReady: true })));
  });

  it("keeps Express's own answers (its 404) on the same objects", async () => {
    const response = await fetch(`${base}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Cannot GET /nowhere");
  });
});
