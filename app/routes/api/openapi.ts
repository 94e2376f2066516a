// GET /api/openapi.json → the OpenAPI 3.1 document, generated from the same zod schemas the routes use.
import { apiRoute, json } from "../../../server/http/api";
import { openApiDocument } from "../../../server/openapi/document";

export const loader = apiRoute({
  GET: async () => json(openApiDocument(), { headers: { "Cache-Control": "public, max-age=300" } }),
});
export const action = loader;
