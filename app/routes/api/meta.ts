// The meta operations' handlers (app/schemas/operations/meta.ts), one per catalogue entry.
import { openApiDocument } from "#server/openapi/document";
import { json } from "#server/http/api";
import type { ResourceHandlers } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const meta = {
  // GET /api/openapi.json → the OpenAPI 3.1 document, generated from the same zod schemas the routes use.
  openapi: handle(api.meta.openapi, async () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } })),
} satisfies ResourceHandlers<typeof api.meta>;
