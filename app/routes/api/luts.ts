// GET /api/luts → built-in presets then uploads (no lutData); POST {name, lutData, size} → 201 after the
// WASM parser accepts the .cube text.
import { db } from "#db/index";
import { apiRoute } from "#server/http/api";
import { createLut, listLuts } from "#server/luts/service";
import { handle } from "#server/http/operation";
import { LUT_1D_MAX_SIZE, LUT_3D_MAX_SIZE } from "../../image/constants";
import { LUT_MAX_TEXT_LENGTH } from "../../schemas/luts";
import { api } from "../../schemas/operations/index";

/**
 * The longest .cube text as a JSON string plus the other fields (~100 MB): JSON escapes add 4 bytes
 * to a row with CRLF and tab separators, and 4 MB covers UTF-8 in comments and the rest.
 */
const LUT_BODY_LIMIT = LUT_MAX_TEXT_LENGTH + 4 * (LUT_3D_MAX_SIZE ** 3 + LUT_1D_MAX_SIZE) + 4 * 1024 * 1024;

export const loader = apiRoute({
  GET: handle(api.luts.list, async ({ user }) => listLuts(db(), user.id)),
  POST: handle(api.luts.create, { bodyLimit: LUT_BODY_LIMIT }, async ({ user, body }) => createLut(db(), user.id, body)),
});
export const action = loader;
