// The public scoreboard overlay. An unknown user id is answered exactly like an account that has no reading yet
// (status, headers, body and event stream), so the overlay cannot tell which accounts exist. And live.html is the
// one page other sites may frame (overlay tools embed it); every other page keeps frame-ancestors 'none'.
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { signUpUser } from "../support/client";
import { openEvents } from "../support/sse";

const baseUrl = inject("baseUrl");

/** Headers that differ between any two requests: the date, the request id and the CSP nonce. */
function comparable(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  delete headers.date;
  delete headers["x-request-id"];
  if (headers["content-security-policy"]) headers["content-security-policy"] = headers["content-security-policy"].replace(/'nonce-[^']+'/, "'nonce-N'");
  return headers;
}

async function snapshot(path: string) {
  const response = await fetch(`${baseUrl}${path}`);
  const text = await response.text();
  return { status: response.status, headers: comparable(response), body: text.replace(/nonce="[^"]+"/g, 'nonce="N"') };
}

describe("public scoreboard for an unknown user id", () => {
  it.each(["/api/scoreboard/live.json", "/api/scoreboard/live.html"])("%s answers an unknown id exactly like a new account", async (path) => {
    const { id } = await signUpUser();
    const known = await snapshot(`${path}?userId=${id}`);
    const unknown = await snapshot(`${path}?userId=${randomUUID()}`);
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    if (path.endsWith(".json")) expect(JSON.parse(unknown.body)).toMatchObject({ periodLabel: "LIVE", version: 0, homeTeam: null });
  });

  it("the event stream opens the same way and sends the same empty board", async () => {
    const { id } = await signUpUser();
    const streams = await Promise.all([id, randomUUID()].map((userId) => openEvents(`${baseUrl}/api/scoreboard/events?userId=${userId}`)));
    try {
      const [known, unknown] = await Promise.all(
        streams.map(async (stream) => ({ status: stream.response.status, headers: comparable(stream.response), first: await stream.next() })),
      );
      expect(known!.status).toBe(200);
      expect(unknown).toEqual(known);
      expect(JSON.parse(unknown!.first.data)).toMatchObject({ periodLabel: "LIVE", version: 0 });
    } finally {
      for (const stream of streams) stream.close();
    }
  });
});

describe("framing", () => {
  it("lets other sites frame live.html (OVERLAY_FRAME_ANCESTORS, default *) and nothing else", async () => {
    const overlay = await fetch(`${baseUrl}/api/scoreboard/live.html?userId=${randomUUID()}`);
    expect(overlay.headers.get("content-security-policy")).toMatch(/(^|; ?)frame-ancestors \*(;|$)/);
    expect(overlay.headers.get("x-frame-options")).toBeNull();
    for (const path of ["/", "/login", "/pricing", "/api/scoreboard/live.json?userId=" + randomUUID(), "/api/auth/me", "/no-such-page"]) {
      const response = await fetch(`${baseUrl}${path}`, { redirect: "manual" });
      expect(response.headers.get("content-security-policy"), path).toMatch(/frame-ancestors 'none'/);
      expect(response.headers.get("x-frame-options"), path).toMatch(/^(SAMEORIGIN|DENY)$/);
    }
  });
});
