// Where people go (issue 31): a coarse grid per camera and UTC hour of where tracks walked (passes into each cell)
// and stayed (seconds in each cell), fed by the studio's tracker and the server's pipeline
// (app/studio/local-vision/heat-grid.ts). Cells row by row from the top left; a batch adds to its hour cell by cell,
// and to its UTC day in vision_heat_days in the same statement, so a year's heatmap sums 366 rows, not 8,784.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("vision_heat")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("hour", "timestamptz", (c) => c.notNull())
    .addColumn("cols", "smallint", (c) => c.notNull())
    .addColumn("rows", "smallint", (c) => c.notNull())
    .addColumn("walk", sql`integer[]`, (c) => c.notNull())
    .addColumn("stay", sql`real[]`, (c) => c.notNull())
    .addPrimaryKeyConstraint("vision_heat_pkey", ["camera_id", "hour"])
    .addCheckConstraint("vision_heat_cells", sql`cardinality(walk) = cols * rows and cardinality(stay) = cols * rows`)
    .execute();
  await db.schema.createIndex("vision_heat_user").on("vision_heat").columns(["user_id", "camera_id", "hour"]).execute();

  await db.schema
    .createTable("vision_heat_days")
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("day", "timestamptz", (c) => c.notNull())
    .addColumn("cols", "smallint", (c) => c.notNull())
    .addColumn("rows", "smallint", (c) => c.notNull())
    .addColumn("walk", sql`integer[]`, (c) => c.notNull())
    .addColumn("stay", sql`real[]`, (c) => c.notNull())
    .addPrimaryKeyConstraint("vision_heat_days_pkey", ["camera_id", "day"])
    .addCheckConstraint("vision_heat_days_cells", sql`cardinality(walk) = cols * rows and cardinality(stay) = cols * rows`)
    .execute();
  await db.schema.createIndex("vision_heat_days_user").on("vision_heat_days").columns(["user_id", "camera_id", "day"]).execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
