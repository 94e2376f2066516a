// The provider client's connections: kept alive between calls, and closed by this side before the provider closes
// them (so a call never goes out on a connection the provider is closing at that moment).
import { createServer, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A provider on loopback that answers "ok", announcing its keep-alive timeout; `connections` is every socket it accepted. */
async function provider(keepAliveTimeoutMs: number): Promise<{ url: string; connections: Socket[] }> {
  const connections: Socket[] = [];
  server = createServer((_req, res) => res.end("ok"));
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on("connection", (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/detect`, connections };
}

describe("httpFetch's connections", () => {
  it("reuses a connection for the next call", async () => {
    const { url, connections } = await provider(5_000);
    for (let i = 0; i < 3; i++) expect(await (await httpFetch(url, { method: "POST", body: "{}" })).text()).toBe("ok");
    expect(connections).toHaveLength(1);
  });

  it("closes an idle connection itself before the provider's announced keep-alive timeout", async () => {
    // Keep-Alive: timeout=2 — this side lets the socket go after 1 s idle, the provider would after 2 s.
    const { url, connections } = await provider(2_000);
    expect(await (await httpFetch(url, { method: "POST", body: "{}" })).text()).toBe("ok");
    const socket = connections[0]!;
    // The client closing first shows as its FIN ('end') reaching the provider; the provider timing out instead
    // destroys the socket without one.
    let clientClosed = false;
    socket.once("end", () => (clientClosed = true));
    await new Promise((resolve) => socket.once("close", resolve));
    expect(clientClosed).toBe(true);
  });
});
