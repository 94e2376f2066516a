// Insights sharing on a real app and PostgreSQL: a report over counts posted as vision events, exported as CSV, Excel
// and PDF; signed share links and their public report, page and lobby widget, refused alike when revoked, expired or
// forged, and never over another user's cameras; scheduled e-mail reports delivered once to an SMTP server on
// loopback with the PDF attached, even with two runs of the job racing.
import ExcelJS from "exceljs";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser, type TestUser } from "../support/client";
import { jpegDataUrl } from "../support/images";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { createOwnDatabase, until } from "../support/webhook-receiver";
import { startFakeSmtp, type FakeSmtp, type ReceivedMail } from "../fakes/smtp/server";

let app: TestApp;
let smtp: FakeSmtp;
let sql: postgres.Sql;
let databaseUrl: string;
let dataDir: string;
let smtpPort: number;
let mails: ReceivedMail[];

beforeAll(async () => {
  smtp = await startFakeSmtp();
  smtpPort = smtp.port;
  mails = smtp.mails;
  databaseUrl = await createOwnDatabase();
  dataDir = tempDir("insights-sharing");
  app = await startApp({
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: "4",
    DATA_DIR: dataDir,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtpPort),
    SMTP_FROM: "Framewise Reports <reports@framewise.test>",
  });
  sql = postgres(databaseUrl, { max: 2, onnotice: () => {} });
});

afterAll(async () => {
  await sql?.end();
  await app?.stop();
  await smtp?.close();
});

const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: { origin: user.client.baseUrl } });
const box = { x: 0.4, y: 0.3, w: 0.1, h: 0.3 };
/** The start of a minute a little while ago, so its events are recent and land in one known minute. */
const minuteAgo = (minutes: number) => Math.floor(Date.now() / 60_000) * 60_000 - minutes * 60_000;
const today = () => new Date().toISOString().slice(0, 10);
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

interface Fixture extends TestUser {
  cameraId: string;
  lineId: string;
  zoneId: string;
}

/** A user with a camera, a door line and a zone, and counts made the way the studio makes them: vision-event batches. */
async function userWithCounts(cameraName: string, people: { in: number; out: number }): Promise<Fixture> {
  const user = await signUpUser({ baseUrl: app.url });
  const camera = await send(user, "POST", "/api/cameras", { name: cameraName, thumbnail: await jpegDataUrl(64, 48) });
  expect(camera.status).toBe(201);
  const cameraId = ((await camera.json()) as { id: string }).id;
  const line = await (await send(user, "POST", `/api/cameras/${cameraId}/lines`, { name: "Main door", a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
  const triangle = [
    { x: 0.1, y: 0.1 },
    { x: 0.9, y: 0.1 },
    { x: 0.5, y: 0.9 },
  ];
  const zone = await (await send(user, "POST", `/api/cameras/${cameraId}/zones`, { name: "Till", polygon: triangle })).json();
  const t0 = minuteAgo(4);
  const events = [
    ...Array.from({ length: people.in }, (_, i) => ({ type: "line.crossed", lineId: line.id, direction: "in", trackId: i + 1, label: "person", at: t0 + i * 1000, box })),
    ...Array.from({ length: people.out }, (_, i) => ({
      type: "line.crossed",
      lineId: line.id,
      direction: "out",
      trackId: i + 1,
      label: "person",
      at: t0 + 60_000 + i * 1000,
      box,
    })),
    { type: "zone.entered", zoneId: zone.id, trackId: 1, label: "person", at: t0 + 2_000, box },
    { type: "zone.exited", zoneId: zone.id, trackId: 1, label: "person", at: t0 + 62_000, box, dwellSeconds: 60 },
  ];
  const posted = await send(user, "POST", `/api/cameras/${cameraId}/vision-events`, { events });
  expect(posted.status).toBe(200);
  return { ...user, cameraId, lineId: line.id, zoneId: zone.id };
}

const reportPath = (format: string, query: Record<string, string>) => `/api/insights/report.${format}?${new URLSearchParams({ from: yesterday(), to: today(), ...query })}`;

/** The CSV once the counts are in the report (rollups run as the events arrive). */
async function csvWith(user: TestUser, query: Record<string, string>, entries: number): Promise<Response & { text: string }> {
  return until(
    async () => {
      const response = await user.client.get(reportPath("csv", query));
      return Object.assign(response, { text: await response.text() });
    },
    (response) => response.status === 200 && response.text.includes(`\r\nEntries,${entries}\r\n`),
  );
}

describe("insights exports", () => {
  it("answers the report as CSV, Excel and PDF, over the user's own cameras only", async () => {
    const owner = await userWithCounts("Front door", { in: 3, out: 1 });
    const query = { cameraIds: owner.cameraId };

    const csv = await csvWith(owner, query, 3);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toBe(
      `attachment; filename="framewise-insights-front-door-${yesterday()}-${today()}.csv"; filename*=UTF-8''framewise-insights-front-door-${yesterday()}-${today()}.csv`,
    );
    expect(csv.text).toContain("\r\nExits,1\r\n");
    expect(csv.text).toContain("Main door,Front door,3,1");

    const xlsx = await owner.client.get(reportPath("xlsx", query));
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(xlsx.headers.get("content-disposition")).toContain(".xlsx");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["Summary", "Traffic", "Occupancy", "Lines", "Zones"]);
    const lines = workbook.getWorksheet("Lines")!;
    expect(lines.getRow(1).font?.bold).toBe(true);
    expect([lines.getCell("A2").value, lines.getCell("C2").value, lines.getCell("D2").value]).toEqual(["Main door", 3, 1]);
    const days = workbook.getWorksheet("Occupancy")!;
    expect(days.getCell("A2").value).toBeInstanceOf(Date);
    const entriesByDay = days.getColumn(2).values.filter((value): value is number => typeof value === "number");
    expect(entriesByDay.reduce((sum, value) => sum + value, 0)).toBe(3);
    expect(workbook.getWorksheet("Zones")!.getCell("C2").value).toBe(1);

    const pdf = await owner.client.get(reportPath("pdf", query));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toContain(`framewise-insights-front-door-${yesterday()}-${today()}.pdf`);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect(bytes.toString("latin1")).toContain("(Front door, ");

    // Another user's camera, and a camera that does not exist, are the same 404; bad dates are a 400 problem.
    const other = await userWithCounts("Back door", { in: 1, out: 0 });
    for (const format of ["csv", "xlsx", "pdf"]) {
      expect((await other.client.get(reportPath(format, query))).status).toBe(404);
    }
    const bad = await owner.client.get(reportPath("csv", { ...query, from: "2026-02-30" }));
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/problem+json");
  });

  it("prints a section per camera when the report covers several cameras without a site", async () => {
    const owner = await userWithCounts("Entrance", { in: 2, out: 0 });
    const second = await send(owner, "POST", "/api/cameras", { name: "Garden gate", thumbnail: await jpegDataUrl(64, 48) });
    const secondId = ((await second.json()) as { id: string }).id;
    await csvWith(owner, { cameraIds: owner.cameraId }, 2);
    const pdf = await owner.client.get(reportPath("pdf", { cameraIds: `${owner.cameraId},${secondId}` }));
    expect(pdf.status).toBe(200);
    const text = Buffer.from(await pdf.arrayBuffer()).toString("latin1");
    expect(text.match(/\/Type \/Page\b/g)!.length).toBeGreaterThanOrEqual(2);
  });
});

describe("insights share links", () => {
  it("opens the report without a session until revoked; a forged or expired link is the same 404", async () => {
    const owner = await userWithCounts("Lobby", { in: 4, out: 2 });
    await csvWith(owner, { cameraIds: owner.cameraId }, 4);
    const view = { cameraIds: [owner.cameraId], period: "last7Days" };
    const created = await send(owner, "POST", "/api/insights/shares", { name: "Board", kind: "report", view });
    expect(created.status).toBe(201);
    const share = await created.json();
    expect(share).toMatchObject({ name: "Board", kind: "report", revokedAt: null, view: { cameraIds: [owner.cameraId], period: "last7Days" } });
    expect(share.url).toMatch(new RegExp(`^/insights/shared/${share.id}\\?expires=\\d+&signature=[\\w-]+$`));
    expect(Date.parse(share.expiresAt) - Date.now()).toBeGreaterThan(29 * 86_400_000); // 30 days by default
    expect(await (await owner.client.get("/api/insights/shares")).json()).toEqual([share]);

    const link = new URL(share.url, app.url);
    const api = new URL(`/api/insights/shared/${share.id}${link.search}`, app.url);
    const report = await fetch(api);
    expect(report.status).toBe(200);
    expect(await report.json()).toMatchObject({ title: "Lobby", totals: { entries: 4, exits: 2 } });

    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<h1");
    expect(html).toContain("Lobby");
    expect(html).toContain('name="robots" content="noindex, nofollow"');
    expect(html).toContain("<svg"); // the charts, drawn on the server
    expect(page.headers.get("x-robots-tag")).toBe("noindex, nofollow");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");

    // Tampered: another signature, another expiry, another id, nothing at all.
    const forged = new URL(api);
    forged.searchParams.set("signature", `${forged.searchParams.get("signature")!.slice(0, -2)}AA`);
    const extended = new URL(api);
    extended.searchParams.set("expires", String(Number(extended.searchParams.get("expires")) + 86_400));
    const otherId = new URL(api.toString().replace(share.id, "00000000-0000-4000-8000-000000000000"));
    const bare = new URL(`/api/insights/shared/${share.id}`, app.url);
    const refusals = await Promise.all([forged, extended, otherId, bare].map(async (url) => [(await fetch(url)).status, await (await fetch(url)).json()]));
    for (const [status, body] of refusals) {
      expect(status).toBe(404);
      expect(body).toEqual(refusals[0]![1]);
    }
    expect((await fetch(new URL(link.toString().replace("signature=", "signature=x")))).status).toBe(404);

    // Past its expiry (the row's; the link still says later): refused, with the same answer.
    await sql`update insight_shares set expires_at = now() - interval '1 minute' where id = ${share.id}`;
    const expired = await fetch(api);
    expect(expired.status).toBe(404);
    expect(await expired.json()).toEqual(refusals[0]![1]);
    await sql`update insight_shares set expires_at = ${share.expiresAt} where id = ${share.id}`;
    expect((await fetch(api)).status).toBe(200);

    // Revoked: at once, for the API and the page; nobody else can revoke it.
    const stranger = await signUpUser({ baseUrl: app.url });
    expect((await send(stranger, "DELETE", `/api/insights/shares/${share.id}`)).status).toBe(404);
    expect((await fetch(api)).status).toBe(200);
    expect((await send(owner, "DELETE", `/api/insights/shares/${share.id}`)).status).toBe(204);
    const revoked = await fetch(api);
    expect(revoked.status).toBe(404);
    expect(await revoked.json()).toEqual(refusals[0]![1]);
    expect((await fetch(link)).status).toBe(404);
    expect((await (await owner.client.get("/api/insights/shares")).json())[0].revokedAt).not.toBeNull();
  });

  it("shares only the user's own cameras, lines and zones, and at most 50 live links", async () => {
    const owner = await userWithCounts("Hall", { in: 1, out: 0 });
    const other = await userWithCounts("Annex", { in: 1, out: 0 });
    const share = (view: Record<string, unknown>) => send(owner, "POST", "/api/insights/shares", { name: "Mine?", kind: "report", view: { period: "today", ...view } });
    expect((await share({ cameraIds: [other.cameraId] })).status).toBe(404);
    expect((await share({ cameraIds: [owner.cameraId], lineIds: [other.lineId] })).status).toBe(404);
    expect((await share({ zoneIds: [other.zoneId] })).status).toBe(404);
    expect((await share({ siteId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
    const theirSite = await send(other, "POST", "/api/insights/sites", { name: "Their site", timeZone: "Europe/London", cameraIds: [other.cameraId] });
    expect(theirSite.status).toBe(201);
    expect((await share({ siteId: (await theirSite.json()).id })).status).toBe(404);
    const mySite = await (await send(owner, "POST", "/api/insights/sites", { name: "My site", timeZone: "Europe/London", cameraIds: [owner.cameraId] })).json();
    const siteShare = await share({ siteId: mySite.id });
    expect(siteShare.status).toBe(201);
    expect((await send(owner, "DELETE", `/api/insights/shares/${(await siteShare.json()).id}`)).status).toBe(204);
    const badInput = await share({ period: "someday" });
    expect(badInput.status).toBe(400);
    expect((await badInput.json()).errors["view.period"]).toEqual(["Choose a period"]);
    expect((await (await owner.client.get("/api/insights/shares")).json()).map((each: { revokedAt: string | null }) => each.revokedAt !== null)).toEqual([true]);

    const made = await Promise.all(Array.from({ length: 52 }, () => share({ cameraIds: [owner.cameraId], lineIds: [owner.lineId] })));
    expect(made.filter((response) => response.status === 201)).toHaveLength(50);
    const refused = made.find((response) => response.status === 409)!;
    expect((await refused.json()).detail).toBe("At most 50 live share links: revoke one first");
  });

  it("serves the lobby widget, which other sites may frame, with today's visitors", async () => {
    const owner = await userWithCounts("Foyer", { in: 5, out: 1 });
    await csvWith(owner, { cameraIds: owner.cameraId }, 5);
    const created = await send(owner, "POST", "/api/insights/shares", { name: "Lobby screen", kind: "widget", view: { cameraIds: [owner.cameraId], period: "today" } });
    const share = await created.json();
    expect(share.url).toMatch(new RegExp(`^/insights/widget/${share.id}\\?expires=`));
    const widget = await fetch(new URL(share.url, app.url));
    expect(widget.status).toBe(200);
    const html = await widget.text();
    expect(html).toMatch(/data-widget="entries"[^>]*>5</);
    expect(html).toContain("visitors today");
    expect(html).toContain("background: transparent");
    expect(widget.headers.get("content-security-policy")).toContain("frame-ancestors *");
    expect(widget.headers.get("x-frame-options")).toBeNull();
    expect(widget.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
  });
});

describe("scheduled insights reports", () => {
  /** This file's app database and SMTP server, in this process: the job's function, run twice at once. */
  async function inProcess() {
    process.env.DATA_DIR = dataDir; // the app's stored secrets
    process.env.LOG_LEVEL = "silent";
    process.env.SMTP_HOST = "127.0.0.1";
    process.env.SMTP_PORT = String(smtpPort);
    process.env.SMTP_FROM = "Framewise Reports <reports@framewise.test>";
    const { initDb, db } = await import("#db/index");
    initDb(databaseUrl, 4);
    const { sendDueReports } = await import("#server/automation/insight-reports");
    const { createMailer } = await import("#server/alerts/transports");
    return { db, sendDueReports, mailer: createMailer() };
  }

  it("e-mails a due report once, its summary in the text and its PDF attached, even with two runs racing", async () => {
    const owner = await userWithCounts("Chapel", { in: 6, out: 2 });
    const to = `${owner.username}@example.test`;
    const refused = await send(owner, "POST", "/api/insights/schedules", {
      name: "Weekly",
      frequency: "weekly",
      recipients: [to],
      view: { cameraIds: [(await userWithCounts("Else", { in: 0, out: 0 })).cameraId] },
    });
    expect(refused.status).toBe(404);
    const created = await send(owner, "POST", "/api/insights/schedules", { name: "Monday numbers", frequency: "weekly", recipients: [to], view: { cameraIds: [owner.cameraId] } });
    expect(created.status).toBe(201);
    const schedule = await created.json();
    // The next Monday, 07:00 (the user has no Insights time zone: UTC).
    const next = new Date(schedule.nextRunAt);
    expect([next.getUTCDay(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 7, 0]);
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
    expect(schedule.lastSentAt).toBeNull();

    // Due now; the counts are this week's, so last week's report (what goes out) has none: the mail still goes.
    await sql`update insight_schedules set next_run_at = now() - interval '1 minute' where id = ${schedule.id}`;
    const { db, sendDueReports, mailer } = await inProcess();
    const runs = await Promise.all([sendDueReports(db(), mailer), sendDueReports(db(), mailer)]);
    // The app's own every-minute job may have taken it first; either way, one run sent it.
    expect(runs.reduce((sum, sent) => sum + sent, 0)).toBeLessThanOrEqual(1);
    const sent = await until(
      async () => mails.filter((mail) => mail.to.includes(to)),
      (found) => found.length > 0,
    );
    await until(async () => (await sql`select last_sent_at from insight_schedules where id = ${schedule.id}`)[0]!.last_sent_at, Boolean);
    expect(sent).toHaveLength(1);
    const raw = sent[0]!.raw;
    expect(raw).toMatch(/Subject: Monday numbers: Chapel, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}/);
    expect(raw).toContain("Entries: ");
    expect(raw).toContain("Busiest day:");
    expect(raw).toMatch(/Content-Type: application\/pdf;\s+name=framewise-insights-chapel-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf/);
    expect(raw).toMatch(/Content-Disposition: attachment;\s+filename=framewise-insights-chapel-/);
    const part = raw.slice(raw.indexOf("Content-Type: application/pdf"));
    const base64 = part.slice(part.indexOf("\r\n\r\n") + 4, part.indexOf("\r\n--"));
    expect(Buffer.from(base64.replace(/\s/g, ""), "base64").subarray(0, 5).toString()).toBe("%PDF-");

    // Not sent again: the next run is next Monday's.
    const after = await (await owner.client.get("/api/insights/schedules")).json();
    expect(Date.parse(after[0].nextRunAt)).toBeGreaterThan(Date.now());
    expect(after[0].lastSentAt).not.toBeNull();
    expect(await sendDueReports(db(), mailer)).toBe(0);
    expect(mails.filter((mail) => mail.to.includes(to))).toHaveLength(1);

    expect((await send(owner, "DELETE", `/api/insights/schedules/${schedule.id}`)).status).toBe(204);
    expect(await (await owner.client.get("/api/insights/schedules")).json()).toEqual([]);
  });

  it("says e-mail is not configured on a server without SMTP", async () => {
    const user = await signUpUser(); // the shared app has no SMTP settings
    const camera = await (await send(user, "POST", "/api/cameras", { name: "Desk", thumbnail: await jpegDataUrl(64, 48) })).json();
    const refused = await send(user, "POST", "/api/insights/schedules", { name: "Weekly", frequency: "weekly", recipients: ["a@example.test"], view: { cameraIds: [camera.id] } });
    expect(refused.status).toBe(503);
    expect((await refused.json()).detail).toBe("E-mail is not configured");
  });
});
