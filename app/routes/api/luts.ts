// The luts operations' handlers (app/schemas/operations/luts.ts), one per catalogue entry.
import { db } from "#db/index";
import { createLut, listLuts, deleteLut, getLut } from "#server/luts/service";
import { handle } from "#server/http/operation";
import { LUT_1D_MAX_SIZE, LUT_3D_MAX_SIZE } from "../../image/constants";
import { LUT_MAX_TEXT_LENGTH } from "../../schemas/luts";
import type { ResourceHandlers } from "#server/http/api";
import { api } from "../../schemas/operations/index";

/**
 * The longest .cube text as a JSON string plus the other fields (~100 MB): JSON escapes add 4 bytes
 * to a row with CRLF and tab separators, and 4 MB covers UTF-8 in comments and the rest.
 */
const LUT_BODY_LIMIT = LUT_MAX_TEXT_LENGTH + 4 * (LUT_3D_MAX_SIZE ** 3 + LUT_1D_MAX_SIZE) + 4 * 1024 * 1024;

export const luts = {
  // GET /api/luts → built-in presets then uploads (no lutData); POST {name, lutData, size} → 201 after the
  // WASM parser accepts the .cube text.
  list: handle(api.luts.list, async ({ user }) => listLuts(db(), user.id)),
  create: handle(api.luts.create, { bodyLimit: LUT_BODY_LIMIT }, async ({ user, body }) => createLut(db(), user.id, body)),
  // GET /api/luts/:id → the LUT with its .cube text; DELETE (built-in presets answer 403).
  get: handle(api.luts.get, { resource: "LUT" }, async ({ user, params }) => getLut(db(), user.id, params.id)),
  remove: handle(api.luts.remove, { resource: "LUT" }, async ({ user, params }) => {
    await deleteLut(db(), user.id, params.id);
  }),
} satisfies ResourceHandlers<typeof api.luts>;
