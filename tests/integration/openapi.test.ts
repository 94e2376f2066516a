// The OpenAPI document and the real API agree: same paths as the route table, and every documented
// method answers (no 405) while every undocumented one is refused with 405.
import { describe, expect, inject, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "#app/routes";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const baseUrl = inject("baseUrl");

interface Doc {
  openapi: string;
  paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
}

function apiPathsOfRouteTable(entries: RouteConfigEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.path?.startsWith("api/") && !entry.path.endsWith("*") ? [`/${entry.path.replace(/:(\w+)/g, "{$1}")}`] : []),
    ...apiPathsOfRouteTable(entry.children ?? []),
  ]);
}

async function fetchDoc(): Promise<Doc> {
  const response = await fetch(`${baseUrl}/api/openapi.json`);
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

describe("/api/openapi.json", () => {
  it("is OpenAPI 3.1 and lists exactly the API routes that exist", async () => {
    const doc = await fetchDoc();
    expect(doc.openapi).toBe("3.1.0");
    const documented = Object.keys(doc.paths).sort();
    const routed = [...new Set(apiPathsOfRouteTable(routes))].sort();
    expect(documented).toEqual(routed);
  });

  it("documents each path's methods exactly: documented ones answer, others get 405", async () => {
    const doc = await fetchDoc();
    const someId = "00000000-0000-4000-8000-000000000000";
    for (const [path, operations] of Object.entries(doc.paths)) {
      const url = `${baseUrl}${path.replace(/\{\w+\}/g, someId)}`;
      for (const method of METHODS) {
        const response = await fetch(url, { method, headers: { "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
        const documented = method.toLowerCase() in operations;
        if (documented) {
          expect(response.status, `${method} ${path}`).not.toBe(405);
          const operation = operations[method.toLowerCase()]!;
          if (operation.security === undefined) expect(response.status, `${method} ${path} must require sign-in`).toBe(401);
          expect(
            Object.keys(operation.responses).some((status) => Number(status) === response.status),
            `${method} ${path} answered an undocumented ${response.status}`,
          ).toBe(true);
        } else {
          expect(response.status, `${method} ${path} is not documented`).toBe(405);
        }
      }
    }
  });

  it("describes request bodies and responses with the zod schemas' field rules", async () => {
    const doc = await fetchDoc();
    const signup = doc.paths["/api/auth/signup"]!.post as unknown as {
      requestBody: { content: { "application/json": { schema: { properties: Record<string, { minLength?: number; maxLength?: number }>; required: string[] } } } };
    };
    const schema = signup.requestBody.content["application/json"].schema;
    expect(schema.required).toEqual(["username", "password"]);
    expect(schema.properties.username).toMatchObject({ minLength: 3, maxLength: 32 });
    expect(schema.properties.password).toMatchObject({ minLength: 6, maxLength: 128 });
  });
});
