// GET /api/luts → built-in presets then uploads (no lutData); POST {name, lutData, size} → 201 after the
// WASM parser accepts the .cube text.
import { db } from "../../../db/index";
import { requireUser } from "../../../server/accounts/sessions";
import { apiRoute, json, readJson } from "../../../server/http/api";
import { createLut, listLuts } from "../../../server/luts/service";
import { lutCreateSchema } from "../../schemas/luts";

/** An 8 MB .cube as a JSON string (escaped newlines) plus the other fields. */
const LUT_BODY_LIMIT = 9 * 1024 * 1024;

export const loader = apiRoute({
  GET: async ({ request }) => json(await listLuts(db(), (await requireUser(request)).id)),
  POST: async ({ request }) => {
    const user = await requireUser(request);
    return json(await createLut(db(), user.id, await readJson(request, lutCreateSchema, LUT_BODY_LIMIT)), { status: 201 });
  },
});
export const action = loader;
