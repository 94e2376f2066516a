// Builds the OpenAPI 3.1 document served at /api/openapi.json from the catalogue: its operations, webhook events
// (`webhooks`) and alert payloads (`components.schemas`).
import { z } from "zod";
import { brand } from "#app/lib/brand";
import { alertEvents, alertMessageSchema, webhookEvents } from "#app/schemas/events";
import { pathParamSchemas } from "#app/schemas/operations/define";
import { operations, type Operation } from "#app/schemas/operations/index";

const problemSchema = {
  type: "object",
  description: "RFC 9457 problem details",
  required: ["type", "title", "status", "detail"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string", description: "a message to show people" },
    errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } }, description: "messages per field" },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: "Invalid request: `errors` names each field",
  401: "Not signed in",
  402: "Free quota used up",
  403: "Not allowed",
  404: "Not found (or not yours)",
  409: "Conflicts with the current state",
  413: "Too large",
  415: "Not a JSON body (or, for an upload, not multipart/form-data)",
  422: "The content could not be used (e.g. not a real image)",
  429: "Too many attempts (or Moondream is rate-limiting the key); see Retry-After",
  501: "The camera does not support this command",
  502: "Moondream (or the camera) failed, refused the credentials or sent an unreadable answer",
  504: "Moondream (or the camera) did not answer in time",
  507: "Image storage is full",
};

const jsonSchema = (schema: z.ZodType, io: "input" | "output") => z.toJSONSchema(schema, { io, unrepresentable: "any" });

function withoutDialect({ $schema: _dialect, ...schema }: Record<string, unknown>) {
  return schema;
}

const pathParamSchema = (name: keyof typeof pathParamSchemas) => withoutDialect(jsonSchema(pathParamSchemas[name], "input"));

function operationObject(op: Operation) {
  const statuses = new Set(op.errors ?? []);
  if (op.access !== "public") statuses.add(401);
  if (op.access === "admin") statuses.add(403);
  statuses.add(405);
  const parameters = [
    ...[...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: pathParamSchema(m[1] as keyof typeof pathParamSchemas) })),
    ...Object.entries(op.query ? (jsonSchema(op.query, "input").properties ?? {}) : {}).map(([name, schema]) => ({ name, in: "query", required: false, schema })),
  ];
  const success = op.success.schema
    ? { description: op.success.description ?? "OK", content: { "application/json": { schema: jsonSchema(op.success.schema, "output") } } }
    : op.success.contentType
      ? { description: op.success.description ?? "OK", content: { [op.success.contentType]: { schema: { type: "string", format: "binary" } } } }
      : { description: op.success.description ?? "No content" };
  return {
    summary: op.summary,
    tags: [op.tag],
    operationId: `${op.method}${op.path.replace(/[{}]/g, "").replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    ...(op.access === "public" ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchema(op.body, "input") } } } } : {}),
    ...(op.form ? { requestBody: { required: true, content: { "multipart/form-data": { schema: withoutDialect(jsonSchema(op.form, "input")) } } } } : {}),
    responses: {
      [String(op.success.status)]: success,
      ...Object.fromEntries(
        [...statuses]
          .sort()
          .map((status) => [
            String(status),
            { description: ERROR_TEXT[status] ?? "Error", content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } } },
          ]),
      ),
    },
  };
}

/** The facts each alert kind reports (AlertDetection, AlertPeopleCount) and the queued message. */
function alertSchemas(): Record<string, unknown> {
  const pascal = (name: string) => name.replace(/(^|_)(\w)/g, (_m, _sep, c: string) => c.toUpperCase());
  return {
    ...Object.fromEntries(
      Object.entries(alertEvents).map(([kind, event]) => [`Alert${pascal(kind)}`, { ...withoutDialect(jsonSchema(event.schema, "output")), description: event.summary }]),
    ),
    AlertMessage: { ...withoutDialect(jsonSchema(alertMessageSchema, "output")), description: "What an alert says: subject and text by e-mail, sms by SMS" },
  };
}

let cached: object | undefined;

export function openApiDocument(): object {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  cached = {
    openapi: "3.1.0",
    info: {
      title: `${brand.productName} API`,
      version: "1.0.0",
      description:
        "The JSON API behind the studio. Authenticate by signing in (POST /api/auth/login); the session cookie `fw_session` is HttpOnly. Mutating requests from browsers must come from the site's own origin. Errors are RFC 9457 problem details.",
    },
    servers: [{ url: "/" }],
    security: [{ sessionCookie: [] }],
    components: {
      securitySchemes: { sessionCookie: { type: "apiKey", in: "cookie", name: "fw_session" } },
      // Alerts leave by e-mail and SMS, not HTTP: their payloads are documented here, by rule kind.
      schemas: { Problem: problemSchema, ...alertSchemas() },
    },
    paths,
    webhooks: Object.fromEntries(
      Object.entries(webhookEvents).map(([name, event]) => [
        name,
        {
          post: {
            summary: event.summary,
            description:
              "POSTed to the user's webhook URL with Standard Webhooks headers webhook-id (the same on every retry: deduplicate on it), webhook-timestamp and webhook-signature (v1, HMAC-SHA256 with the whsec_ secret from GET /api/webhooks/secret). Answer 2xx; 3xx counts as failure; 410 switches the webhook off; Retry-After is honoured.",
            requestBody: { required: true, content: { "application/json": { schema: jsonSchema(event.schema, "output") } } },
            responses: { "200": { description: "Received" } },
          },
        },
      ]),
    ),
  };
  return cached;
}
