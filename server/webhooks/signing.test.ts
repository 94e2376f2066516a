// The delivery path signs with node:crypto; receivers verify with any Standard Webhooks library. This holds the
// two to the same bytes, with the reference package (npm standardwebhooks) as the judge.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signature, signedHeaders } from "./delivery";
import { newSecret } from "./secret";

describe("webhook signatures", () => {
  const bodies = ["{}", JSON.stringify({ type: "detection_made", data: { object: "person ü 人 📷", detected: true } }), "x".repeat(70_000)];

  it("are the reference package's signature, byte for byte, for any secret, id, time and body", () => {
    for (const secret of [newSecret(), newSecret(), `whsec_${randomBytes(24).toString("base64")}`, randomBytes(64).toString("base64")]) {
      for (const body of bodies) {
        const at = new Date(1_700_000_000_123 + Math.floor(Math.random() * 1e9));
        expect(signature(secret, "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", at, body)).toBe(new Webhook(secret).sign("msg_2KWPBgLlAfxdpx2AI54pPJ85f4W", at, body));
      }
    }
  });

  it("verify with the reference package, and fail it for another secret or a changed body", () => {
    const secret = newSecret();
    const body = bodies[1]!;
    const headers = signedHeaders(secret, "msg_abc", body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body.replace("person", "persons"), headers)).toThrow();
  });

  it("keep each secret's own key when several users' secrets are in use", () => {
    const [a, b] = [newSecret(), newSecret()];
    const at = new Date();
    expect(signature(a, "msg_1", at, "{}")).not.toBe(signature(b, "msg_1", at, "{}"));
    expect(signature(a, "msg_1", at, "{}")).toBe(new Webhook(a).sign("msg_1", at, "{}"));
    expect(signature(b, "msg_1", at, "{}")).toBe(new Webhook(b).sign("msg_1", at, "{}"));
  });
});
