// SQL for where people go (vision_heat and vision_heat_days, migration 0022): per camera and UTC hour (and day), the
// passes into each cell of the grid and the seconds spent in it, always scoped to the owner.
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

const DAY_MS = 24 * 3_600_000;
const dayOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

/** An array literal for a cast: every value is a checked finite number, so the text is only digits, signs and dots. */
const arrayText = (values: readonly number[]) => `{${values.join(",")}}`;

/** `table.column + excluded.column`, cell by cell. */
const addCells = (table: "vision_heat" | "vision_heat_days", column: "walk" | "stay") =>
  sql`(select array_agg(a + b order by i) from unnest(${sql.ref(`${table}.${column}`)}, ${sql.ref(`excluded.${column}`)}) with ordinality as cells(a, b, i))`;

/**
 * Adds a grid to its camera's hour and day, cell by cell (a row is created by its first grid), in one statement so
 * the two never disagree. A row of another grid size (never written today) is left as it is rather than mixed with
 * cells that mean other places.
 */
export async function addHeat(db: DB, userId: string, cameraId: string, heat: HeatIncrement): Promise<void> {
  const values = (time: Date) =>
    sql`(${userId}::uuid, ${cameraId}::uuid, ${time}::timestamptz, ${heat.cols}, ${heat.rows}, ${arrayText(heat.walk)}::integer[], ${arrayText(heat.stay)}::real[])`;
  await sql`
    with hour as (
      insert into vision_heat (user_id, camera_id, hour, cols, rows, walk, stay) values ${values(heat.hour)}
      on conflict (camera_id, hour) do update set walk = ${addCells("vision_heat", "walk")}, stay = ${addCells("vision_heat", "stay")}
      where vision_heat.cols = excluded.cols and vision_heat.rows = excluded.rows and vision_heat.user_id = excluded.user_id
    )
    insert into vision_heat_days (user_id, camera_id, day, cols, rows, walk, stay) values ${values(new Date(dayOf(heat.hour.getTime())))}
    on conflict (camera_id, day) do update set walk = ${addCells("vision_heat_days", "walk")}, stay = ${addCells("vision_heat_days", "stay")}
    where vision_heat_days.cols = excluded.cols and vision_heat_days.rows = excluded.rows and vision_heat_days.user_id = excluded.user_id
  `.execute(db);
}

/**
 * The camera's grids of the hours starting in [from, to) (`from` a whole hour), of one grid size, summed cell by cell
 * in the database (only the 576 sums cross the wire), with how many hours had any. Whole UTC days inside the period
 * are read from the days' rows, the hours at its ends from the hours': a year is ~366 rows to add, not 8,784.
 */
export async function sumHeat(db: DB, userId: string, cameraId: string, range: { from: Date; to: Date; cols: number; rows: number }) {
  const firstDay = new Date(Math.ceil(range.from.getTime() / DAY_MS) * DAY_MS);
  const endDay = new Date(Math.max(firstDay.getTime(), dayOf(range.to.getTime())));
  const scope = sql`user_id = ${userId}::uuid and camera_id = ${cameraId}::uuid and cols = ${range.cols} and rows = ${range.rows}`;
  const [cells, hours] = await Promise.all([
    sql<{ i: number; walk: number; stay: number }>`
      select cells.i::integer as i, sum(cells.w)::float8 as walk, sum(cells.s::float8) as stay
      from (
        select walk, stay from vision_heat where ${scope} and hour >= ${range.from}::timestamptz and hour < ${firstDay}::timestamptz and hour < ${range.to}::timestamptz
        union all
        select walk, stay from vision_heat_days where ${scope} and day >= ${firstDay}::timestamptz and day < ${endDay}::timestamptz
        union all
        select walk, stay from vision_heat where ${scope} and hour >= ${endDay}::timestamptz and hour < ${range.to}::timestamptz
      ) grids, unnest(grids.walk, grids.stay) with ordinality as cells(w, s, i)
      group by cells.i
    `.execute(db),
    sql<{ hours: number }>`select count(*)::integer as hours from vision_heat where ${scope} and hour >= ${range.from}::timestamptz and hour < ${range.to}::timestamptz`.execute(
      db,
    ),
  ]);
  return { cells: cells.rows, hours: hours.rows[0]?.hours ?? 0 };
}
