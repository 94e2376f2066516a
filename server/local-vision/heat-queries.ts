// SQL for where people go (vision_heat, migration 0022): per camera and UTC hour, the passes into each cell of the
// grid and the seconds spent in it, always scoped to the owner.
import { sql } from "kysely";
import type { DB } from "#db/index";

export interface HeatIncrement {
  /** The start of the UTC hour. */
  hour: Date;
  cols: number;
  rows: number;
  walk: readonly number[];
  stay: readonly number[];
}

/** An array literal for a cast: every value is a checked finite number, so the text is only digits, signs and dots. */
const arrayText = (values: readonly number[]) => `{${values.join(",")}}`;

/**
 * Adds a grid to its camera's hour, cell by cell (the row is created on the hour's first grid). A row of another
 * grid size (never written today) is left as it is rather than mixed with cells that mean other places.
 */
export async function addHeat(db: DB, userId: string, cameraId: string, heat: HeatIncrement): Promise<void> {
  await sql`
    insert into vision_heat (user_id, camera_id, hour, cols, rows, walk, stay)
    values (${userId}::uuid, ${cameraId}::uuid, ${heat.hour}::timestamptz, ${heat.cols}, ${heat.rows}, ${arrayText(heat.walk)}::integer[], ${arrayText(heat.stay)}::real[])
    on conflict (camera_id, hour) do update set
      walk = (select array_agg(a + b order by i) from unnest(vision_heat.walk, excluded.walk) with ordinality as cells(a, b, i)),
      stay = (select array_agg(a + b order by i) from unnest(vision_heat.stay, excluded.stay) with ordinality as cells(a, b, i))
    where vision_heat.cols = excluded.cols and vision_heat.rows = excluded.rows and vision_heat.user_id = excluded.user_id
  `.execute(db);
}

/**
 * The camera's grids of the hours starting in [from, to), of one grid size, summed cell by cell in the database (a
 * year of hours is 8,784 rows: only the 576 sums cross the wire), with how many hours had any.
 */
export async function sumHeat(db: DB, userId: string, cameraId: string, range: { from: Date; to: Date; cols: number; rows: number }) {
  const scope = sql`user_id = ${userId}::uuid and camera_id = ${cameraId}::uuid and hour >= ${range.from}::timestamptz and hour < ${range.to}::timestamptz
    and cols = ${range.cols} and rows = ${range.rows}`;
  const [cells, hours] = await Promise.all([
    sql<{ i: number; walk: number; stay: number }>`
      select cells.i::integer as i, sum(cells.w)::float8 as walk, sum(cells.s::float8) as stay
      from vision_heat, unnest(walk, stay) with ordinality as cells(w, s, i)
      where ${scope}
      group by cells.i
    `.execute(db),
    sql<{ hours: number }>`select count(*)::integer as hours from vision_heat where ${scope}`.execute(db),
  ]);
  return { cells: cells.rows, hours: hours.rows[0]?.hours ?? 0 };
}
