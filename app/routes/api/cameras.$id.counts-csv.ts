// GET /api/cameras/:id/counts.csv — the same counts as a CSV download.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";
import { countsCsv } from "#server/local-vision/service";

export const loader = apiRoute({
  GET: handle(api.localVision.countsCsv, { resource: "Camera" }, async ({ user, params, query }) => {
    const { filename, csv } = await countsCsv(db(), user.id, params.id, query);
    return new Response(csv, {
      headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
    });
  }),
});
export const action = loader;
