// GET /api/openapi.json → the OpenAPI 3.1 document, generated from the same zod schemas the routes use.
import { openApiDocument } from "#server/openapi/document";
import { apiRoute, json } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.meta.openapi, async () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } })),
});
export const action = loader;
