// LUTs: the user's uploaded .cube files (validated by the same WASM parser the browser uses) and the
// seven built-in presets, created once per user and never deletable.
import type { LutSummary, Lut } from "#app/schemas/luts";
import { BUILTIN_LUTS } from "#app/image/builtin-luts";
import { CubeParseError } from "#app/image/cube-parse-error";
import { imageCoreForParsing } from "#app/image/load-image-core";
import type { DB } from "#db/index";
import { notFound, ProblemError } from "../errors";
import * as q from "./queries";

function toSummary(row: { id: string; name: string; size: number; builtin: boolean; created_at: Date }): LutSummary {
  return { id: row.id, name: row.name, size: row.size, builtin: row.builtin, createdAt: row.created_at.toISOString() };
}

/** Creates any missing built-in presets for the user (idempotent, race-free via the partial unique index). */
async function ensureBuiltins(db: DB, userId: string): Promise<void> {
  if ((await q.countBuiltins(db, userId)) >= BUILTIN_LUTS.length) return;
  await q.insertBuiltins(db, userId, BUILTIN_LUTS);
}

/** Built-ins first (in their designed order), then uploads oldest first; never the .cube text. */
export async function listLuts(db: DB, userId: string): Promise<LutSummary[]> {
  await ensureBuiltins(db, userId);
  const rows = await q.listLuts(db, userId);
  const order = new Map(BUILTIN_LUTS.map((lut, index) => [lut.name, index]));
  const builtins = rows.filter((r) => r.builtin).sort((a, b) => (order.get(a.name) ?? 99) - (order.get(b.name) ?? 99));
  return [...builtins, ...rows.filter((r) => !r.builtin)].map(toSummary);
}

export async function getLut(db: DB, userId: string, id: string): Promise<Lut> {
  const row = await q.findLut(db, userId, id);
  if (!row) throw notFound("LUT");
  return { ...toSummary(row), lutData: row.lut_data };
}

/**
 * Parses the upload with the image core (as the browser did) and stores what it can grade: 3D cubes
 * up to LUT_3D_MAX_SIZE, 1D LUTs and Resolve shaper files; otherwise 422 with the parser's message.
 */
export async function createLut(db: DB, userId: string, input: { name: string; lutData: string; size?: number | undefined }): Promise<LutSummary> {
  const core = await imageCoreForParsing(input.lutData.length);
  let parsed;
  try {
    parsed = core.parseCube(input.lutData, input.name);
  } catch (error) {
    if (error instanceof CubeParseError) throw new ProblemError(422, error.message, { errors: { lutData: [error.message] } });
    throw error;
  }
  if (input.size !== undefined && input.size !== parsed.size) {
    const keyword = parsed.kind === "3d" ? "LUT_3D_SIZE" : "LUT_1D_SIZE";
    throw new ProblemError(422, `size ${input.size} does not match the file's ${keyword} ${parsed.size}`, { errors: { size: ["does not match the file"] } });
  }
  const row = await q.insertLut(db, { user_id: userId, name: input.name, size: parsed.size, lut_data: input.lutData });
  return toSummary(row);
}

export async function deleteLut(db: DB, userId: string, id: string): Promise<void> {
  const row = await q.findLutOrigin(db, userId, id);
  if (!row) throw notFound("LUT");
  if (row.builtin) throw new ProblemError(403, "Built-in LUT presets cannot be deleted");
  await q.deleteLut(db, userId, id);
}
