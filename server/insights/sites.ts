// Sites (cameras and their doors under one time zone), their windows (services, opening hours, one-off events,
// closed days) and the Insights settings. A camera is in at most one site: putting it in another moves it. A change of
// a camera's time zone (its site's, or the setting for cameras in no site) rebuilds its daily rollup.
import type { Selectable } from "kysely";
import type { InsightSettings, InsightWindow, Site, SiteInput, WindowInput } from "#app/schemas/insights";
import { MAX_SITES, MAX_WINDOWS_PER_SITE } from "#app/schemas/insights";
import type { DB } from "#db/index";
import type { SitesTable, SiteWindowsTable } from "#db/schema";
import { createWithinCap } from "../caps";
import { notFound, ProblemError } from "../errors";
import { queueDayRebuilds } from "./rollup";
import { cameraTimeZones } from "./scope";
import { queueSiteRebuild } from "./site-hours";

function toSite(row: Selectable<SitesTable>, cameraIds: string[]): Site {
  return {
    id: row.id,
    name: row.name,
    timeZone: row.time_zone,
    dayStartsAt: row.day_starts_at,
    capacity: row.capacity,
    cameraIds,
    doors: row.doors,
    createdAt: row.created_at.toISOString(),
  };
}

function toWindow(row: Selectable<SiteWindowsTable>): InsightWindow {
  return {
    id: row.id,
    siteId: row.site_id,
    name: row.name,
    kind: row.kind,
    weekdays: row.weekdays,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    date: row.date,
    createdAt: row.created_at.toISOString(),
  };
}

async function siteCameras(db: DB, siteIds: readonly string[]): Promise<Map<string, string[]>> {
  const members = new Map<string, string[]>(siteIds.map((id) => [id, []]));
  if (siteIds.length === 0) return members;
  const rows = await db
    .selectFrom("site_cameras as sc")
    .innerJoin("cameras as c", "c.id", "sc.camera_id")
    .select(["sc.site_id", "sc.camera_id"])
    .where("sc.site_id", "in", [...siteIds])
    .orderBy("c.created_at")
    .orderBy("c.id")
    .execute();
  for (const row of rows) members.get(row.site_id)?.push(row.camera_id);
  return members;
}

/** The cameras and doors must be the user's, and each door on one of the site's cameras. */
async function checkInput(db: DB, userId: string, input: SiteInput): Promise<SiteInput> {
  const cameraIds = [...new Set(input.cameraIds.map((id) => id.toLowerCase()))];
  const cameras = await db.selectFrom("cameras").select("id").where("user_id", "=", userId).where("id", "in", cameraIds).execute();
  if (cameras.length !== cameraIds.length) throw notFound("Camera");
  const doorIds = input.doors.map((door) => door.lineId.toLowerCase());
  const lines = doorIds.length > 0 ? await db.selectFrom("vision_lines").select(["id", "camera_id"]).where("user_id", "=", userId).where("id", "in", doorIds).execute() : [];
  const onSite = new Map(lines.map((line) => [line.id, cameraIds.includes(line.camera_id)]));
  const errors: Record<string, string[]> = {};
  doorIds.forEach((id, index) => {
    if (!onSite.get(id)) errors[`doors.${index}.lineId`] = ["Choose a line on one of the site's cameras"];
  });
  if (Object.keys(errors).length > 0) throw new ProblemError(400, "A door is not a line on the site's cameras", { errors });
  const doors = [...new Map(input.doors.map((door) => [door.lineId.toLowerCase(), { lineId: door.lineId.toLowerCase(), entering: door.entering }])).values()];
  return { ...input, cameraIds, doors };
}

/** The time zones of the site's cameras and of those about to join it: read before a change, to see whose changed. */
async function zonesBefore(trx: DB, siteId: string | null, cameraIds: readonly string[]): Promise<Map<string, string>> {
  const current = siteId ? (await trx.selectFrom("site_cameras").select("camera_id").where("site_id", "=", siteId).execute()).map((row) => row.camera_id) : [];
  return cameraTimeZones(trx, [...new Set([...current, ...cameraIds])]);
}

/** Puts the cameras in the site, taking them from any other. */
async function placeCameras(trx: DB, userId: string, siteId: string, cameraIds: readonly string[]): Promise<void> {
  await trx.deleteFrom("site_cameras").where("site_id", "=", siteId).execute();
  await trx
    .deleteFrom("site_cameras")
    .where("user_id", "=", userId)
    .where("camera_id", "in", [...cameraIds])
    .execute();
  await trx
    .insertInto("site_cameras")
    .values(cameraIds.map((cameraId) => ({ camera_id: cameraId, site_id: siteId, user_id: userId })))
    .execute();
}

/** Books the rebuild of the daily rollup of each camera whose time zone is not what it was. */
async function rebuildChanged(trx: DB, before: Map<string, string>): Promise<void> {
  const after = await cameraTimeZones(trx, [...before.keys()]);
  await queueDayRebuilds(
    trx,
    [...before].filter(([id, zone]) => after.get(id) !== zone).map(([id]) => id),
  );
}

export async function listSites(db: DB, userId: string): Promise<Site[]> {
  const rows = await db.selectFrom("sites").selectAll().where("user_id", "=", userId).orderBy("created_at").orderBy("id").execute();
  const members = await siteCameras(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSite(row, members.get(row.id) ?? []));
}

export async function createSite(db: DB, userId: string, given: SiteInput): Promise<Site> {
  const input = await checkInput(db, userId, given);
  const cap = {
    resource: "sites",
    owner: userId,
    max: MAX_SITES,
    refusal: `You can have at most ${MAX_SITES} sites`,
    count: async (trx: DB) =>
      Number(
        (
          await trx
            .selectFrom("sites")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("user_id", "=", userId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
  const row = await createWithinCap(db, cap, async (trx) => {
    const before = await zonesBefore(trx, null, input.cameraIds);
    const site = await trx
      .insertInto("sites")
      .values({ user_id: userId, name: input.name, time_zone: input.timeZone, day_starts_at: input.dayStartsAt, capacity: input.capacity, doors: input.doors })
      .returningAll()
      .executeTakeFirstOrThrow();
    await placeCameras(trx, userId, site.id, input.cameraIds);
    await rebuildChanged(trx, before);
    await queueSiteRebuild(trx, site.id);
    return site;
  });
  return toSite(row, input.cameraIds);
}

export async function updateSite(db: DB, userId: string, id: string, given: SiteInput): Promise<Site> {
  const input = await checkInput(db, userId, given);
  const row = await db.transaction().execute(async (trx) => {
    const before = await zonesBefore(trx, id, input.cameraIds);
    const site = await trx
      .updateTable("sites")
      .set({ name: input.name, time_zone: input.timeZone, day_starts_at: input.dayStartsAt, capacity: input.capacity, doors: input.doors })
      .where("user_id", "=", userId)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirst();
    if (!site) throw notFound("Site");
    await placeCameras(trx, userId, site.id, input.cameraIds);
    await rebuildChanged(trx, before);
    await queueSiteRebuild(trx, site.id);
    return site;
  });
  return toSite(row, input.cameraIds);
}

export async function deleteSite(db: DB, userId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const cameraIds = (await trx.selectFrom("site_cameras").select("camera_id").where("site_id", "=", id).where("user_id", "=", userId).execute()).map((row) => row.camera_id);
    const before = await cameraTimeZones(trx, cameraIds);
    const row = await trx.deleteFrom("sites").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
    if (!row) throw notFound("Site");
    await rebuildChanged(trx, before);
  });
}

async function requireSite(db: DB, userId: string, siteId: string) {
  const site = await db.selectFrom("sites").select("id").where("user_id", "=", userId).where("id", "=", siteId).executeTakeFirst();
  if (!site) throw notFound("Site");
  return site;
}

const windowValues = (input: WindowInput) => ({
  name: input.name,
  kind: input.kind,
  weekdays: input.kind === "weekly" ? [...new Set(input.weekdays)].sort() : [],
  starts_at: input.startsAt,
  ends_at: input.endsAt,
  date: input.kind === "weekly" ? null : input.date,
});

export async function listWindows(db: DB, userId: string, siteId: string): Promise<InsightWindow[]> {
  await requireSite(db, userId, siteId);
  const rows = await db.selectFrom("site_windows").selectAll().where("user_id", "=", userId).where("site_id", "=", siteId).orderBy("created_at").orderBy("id").execute();
  return rows.map(toWindow);
}

export async function createWindow(db: DB, userId: string, siteId: string, input: WindowInput): Promise<InsightWindow> {
  await requireSite(db, userId, siteId);
  const cap = {
    resource: "site_windows",
    owner: siteId,
    max: MAX_WINDOWS_PER_SITE,
    refusal: `A site can have at most ${MAX_WINDOWS_PER_SITE} windows`,
    count: async (trx: DB) =>
      Number(
        (
          await trx
            .selectFrom("site_windows")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("site_id", "=", siteId)
            .executeTakeFirstOrThrow()
        ).n,
      ),
  };
  const row = await createWithinCap(db, cap, (trx) =>
    trx
      .insertInto("site_windows")
      .values({ site_id: siteId, user_id: userId, ...windowValues(input) })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  return toWindow(row);
}

export async function updateWindow(db: DB, userId: string, id: string, input: WindowInput): Promise<InsightWindow> {
  const row = await db.updateTable("site_windows").set(windowValues(input)).where("user_id", "=", userId).where("id", "=", id).returningAll().executeTakeFirst();
  if (!row) throw notFound("Window");
  return toWindow(row);
}

export async function deleteWindow(db: DB, userId: string, id: string): Promise<void> {
  const row = await db.deleteFrom("site_windows").where("user_id", "=", userId).where("id", "=", id).returning("id").executeTakeFirst();
  if (!row) throw notFound("Window");
}

/** Saves the settings; a new time zone rebuilds the days of the user's cameras that are in no site. */
export async function saveSettings(db: DB, userId: string, input: InsightSettings) {
  await db.transaction().execute(async (trx) => {
    const loose = (
      await trx
        .selectFrom("cameras as c")
        .leftJoin("site_cameras as sc", "sc.camera_id", "c.id")
        .select("c.id")
        .where("c.user_id", "=", userId)
        .where("sc.camera_id", "is", null)
        .execute()
    ).map((row) => row.id);
    const before = await cameraTimeZones(trx, loose);
    await trx
      .insertInto("insight_settings")
      .values({ user_id: userId, time_zone: input.timeZone, minute_retention_days: input.minuteRetentionDays })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ time_zone: input.timeZone, minute_retention_days: input.minuteRetentionDays }))
      .execute();
    await rebuildChanged(trx, before);
  });
  return { ...input, saved: true };
}
