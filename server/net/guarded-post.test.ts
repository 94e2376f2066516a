// SSRF at connect time: literal addresses, names resolving to refused ranges, and a DNS answer that
// changes to loopback after an earlier (public) answer — the check runs on the address actually used.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseNetworks, publicOnly, type AddressPolicy } from "./address-policy";
import { guardedPost, OutboundError, type LookupAll } from "./guarded-post";

let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits++;
    if (req.url === "/hang") {
      req.resume(); // read, never answered
      return;
    }
    if (req.url === "/redirect") {
      res.writeHead(302, { location: "http://127.0.0.1:1/" }).end();
      return;
    }
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "text/plain" }).end("ok"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const options = (lookup?: LookupAll, policy: AddressPolicy = publicOnly()) => ({ policy, timeoutMs: 5_000, headers: { "content-type": "application/json" }, lookup });

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

describe("guardedPost", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["10.0.0.1", "private"],
    ["169.254.169.254", "metadata"],
    ["[::1]", "loopback"],
    ["[::ffff:127.0.0.1]", "loopback"],
    ["[::127.0.0.1]", "embeds 127.0.0.1"], // IPv4-compatible: the server used to try to connect
    ["[64:ff9b::169.254.169.254]", "embeds 169.254.169.254"],
    ["2130706433", "loopback"],
    ["localhost", "loopback"],
  ])("refuses the literal address %s", async (host, kind) => {
    const before = hits;
    const error = await refusal(guardedPost(`http://${host}:${port}/hook`, "{}", options()));
    expect(error.refused).toBe(true);
    expect(error.message).toContain(kind);
    expect(hits).toBe(before);
  });

  it.each([
    ["127.0.0.1", 4],
    ["10.0.0.1", 4],
    ["169.254.169.254", 4],
    ["::1", 6],
    ["::ffff:127.0.0.1", 6],
    ["::127.0.0.1", 6], // how inet_ntop prints an IPv4-compatible AAAA answer
    ["2002:7f00:1::1", 6],
  ])("refuses a hostname resolving to %s", async (address, family) => {
    const error = await refusal(
      guardedPost(
        `http://hooks.example.test:${port}/hook`,
        "{}",
        options(async () => [{ address, family }]),
      ),
    );
    expect(error.refused).toBe(true);
    expect(error.message).toMatch(/^Refused: hooks\.example\.test resolves to/);
  });

  it("refuses a hostname whose DNS answer changes to 127.0.0.1 after validation (rebinding)", async () => {
    let calls = 0;
    // First answer public (what any up-front validation would see), every later one loopback.
    const rebinding: LookupAll = async () => (calls++ === 0 ? [{ address: "93.184.216.34", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const first = await rebinding("rebind.example.test");
    expect(first[0]!.address).toBe("93.184.216.34");
    const before = hits;
    const error = await refusal(guardedPost(`http://rebind.example.test:${port}/hook`, "{}", options(rebinding)));
    expect(error.refused).toBe(true);
    expect(error.message).toContain("loopback");
    expect(hits).toBe(before);
  });

  it("refuses when any one of several answers is refused", async () => {
    const mixed: LookupAll = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    expect((await refusal(guardedPost(`http://mixed.example.test:${port}/`, "{}", options(mixed)))).refused).toBe(true);
  });

  it("refuses non-http schemes and credentials in the URL", async () => {
    expect((await refusal(guardedPost("ftp://example.com/", "{}", options()))).message).toContain("http");
    expect((await refusal(guardedPost("http://user:pw@example.com/", "{}", options()))).message).toContain("user name");
  });

  it("delivers through an allow-listed loopback, by address and by name, and never follows a redirect", async () => {
    const allowLoopback = publicOnly(parseNetworks("127.0.0.0/8"));
    expect((await guardedPost(`http://127.0.0.1:${port}/hook`, "{}", options(undefined, allowLoopback))).status).toBe(200);
    const byName = await guardedPost(
      `http://receiver.example.test:${port}/hook`,
      "{}",
      options(async () => [{ address: "127.0.0.1", family: 4 }], allowLoopback),
    );
    expect(byName.status).toBe(200);
    const redirected = await guardedPost(`http://127.0.0.1:${port}/redirect`, "{}", options(undefined, allowLoopback));
    expect(redirected.status).toBe(302);
  });

  it("gives up at its deadline when the receiver does not answer", async () => {
    const loopback = publicOnly(parseNetworks("127.0.0.0/8"));
    const before = hits;
    const error = await refusal(guardedPost(`http://127.0.0.1:${port}/hang`, "{}", { ...options(undefined, loopback), timeoutMs: 1_000 }));
    expect(error).toMatchObject({ message: "No answer within 1 s", refused: false });
    expect(hits).toBe(before + 1);
  });

  it("sends nothing when its deadline passes before the connection is up", async () => {
    const loopback = publicOnly(parseNetworks("127.0.0.0/8"));
    let answerDns!: () => void;
    const dnsAnswered = new Promise<void>((resolve) => (answerDns = resolve));
    const slowDns: LookupAll = async () => {
      await dnsAnswered;
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const before = hits;
    const error = await refusal(guardedPost(`http://slow-dns.example.test:${port}/late`, "{}", { ...options(slowDns, loopback), timeoutMs: 1_000 }));
    expect(error.message).toBe("No answer within 1 s");
    answerDns(); // the connection comes up now, after the deadline
    // A POST made after it on the same pool arrives; the late one never does.
    expect((await guardedPost(`http://slow-dns.example.test:${port}/after`, "{}", options(slowDns, loopback))).status).toBe(200);
    expect(hits).toBe(before + 1);
  });

  it("judges a URL again under another policy, and keeps refusing it under the same one (the checks are remembered per policy)", async () => {
    const url = `http://127.0.0.1:${port}/remembered`;
    const allowLoopback = publicOnly(parseNetworks("127.0.0.0/8"));
    const strict = publicOnly();
    const before = hits;
    expect((await guardedPost(url, "{}", options(undefined, allowLoopback))).status).toBe(200);
    expect((await refusal(guardedPost(url, "{}", options(undefined, strict)))).refused).toBe(true);
    expect((await refusal(guardedPost(url, "{}", options(undefined, strict)))).refused).toBe(true);
    expect((await guardedPost(url, "{}", options(undefined, allowLoopback))).status).toBe(200);
    expect(hits - before).toBe(2);
    // A refused form stays refused on every call.
    for (let i = 0; i < 3; i++) expect((await refusal(guardedPost("http://user:pw@example.com/", "{}", options(undefined, allowLoopback)))).refused).toBe(true);
  });
});
