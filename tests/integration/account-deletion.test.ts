// Deleting an account removes everything of theirs: rows and image blobs.
import postgres from "postgres";
import { afterAll, describe, expect, inject, it } from "vitest";
import { signUpUser } from "../support/client";
import { blobFilesOf } from "../support/blobs";
import { jpegDataUrl } from "../support/images";
import { holdRowThenReferTo } from "../support/deadlock";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
afterAll(() => sql.end());

describe("DELETE /api/auth/me", () => {
  it("removes the user, their rows and their blobs, and ends the session", async () => {
    const user = await signUpUser();
    const c = user.client;
    const camera = (await (await c.post("/api/cameras", { name: "Cam", thumbnail: await jpegDataUrl() })).json()).id;
    const story = (await (await c.post("/api/stories", { cameraId: camera })).json()).id;
    await c.post("/api/photos", { imageData: await jpegDataUrl(), cameraId: camera, storyId: story });
    await c.post(`/api/stories/${story}/captions`, { caption: "hello" });
    await c.post("/api/people-count/sessions", {});
    await c.post("/api/webhooks/settings", { webhookUrl: "https://hooks.example.invalid", webhookEnabled: true, webhookEventType: "simple" });
    await c.post("/api/feature-requests", { title: "t", description: "d" });
    expect((await c.post("/api/saved-searches", { name: "s", query: { q: "bench" } })).status).toBe(201);
    const polygon = [
      { x: 0, y: 0 },
      { x: 1, y: 0 },
      { x: 1, y: 1 },
    ];
    const zone = (await (await c.post(`/api/cameras/${camera}/zones`, { name: "Z", polygon })).json()).id;
    await c.post(`/api/cameras/${camera}/lines`, { name: "L", a: { x: 0, y: 0 }, b: { x: 1, y: 1 } });
    const entered = { type: "zone.entered", zoneId: zone, trackId: 1, label: "person", at: Date.now(), box: { x: 0, y: 0, w: 0.1, h: 0.1 } };
    const heat = { hour: Math.floor(Date.now() / 3_600_000) * 3_600_000, cols: 32, rows: 18, walk: new Array(576).fill(1), stay: new Array(576).fill(1) };
    expect((await c.post(`/api/cameras/${camera}/vision-events`, { events: [entered], heat })).status).toBe(200);
    expect(blobFilesOf(user.id).length).toBe(4);

    const response = await c.request("DELETE", "/api/auth/me");
    expect(response.status).toBe(204);
    expect((await c.get("/api/auth/me")).status).toBe(401);
    for (const table of [
      "cameras",
      "photos",
      "stories",
      "count_sessions",
      "webhook_settings",
      "sessions",
      "presets",
      "luts",
      "vision_zones",
      "vision_lines",
      "vision_counts",
      "vision_heat",
      "vision_heat_days",
      "saved_searches",
      "search_words",
    ]) {
      const [row] = await sql`select count(*)::int as n from ${sql(table)} where user_id = ${user.id}`;
      expect(row!.n, table).toBe(0);
    }
    const [captions] = await sql`select count(*)::int as n from story_captions where story_id = ${story}`;
    expect(captions!.n).toBe(0);
    const [request] = await sql`select user_id from feature_requests where title = 't' and description = 'd' order by created_at desc limit 1`;
    expect(request!.user_id).toBeNull(); // the request stays for the admins, shown as 'Unknown User'
    expect(blobFilesOf(user.id)).toEqual([]);
  });

  it("deletes the account when PostgreSQL aborts it to break a deadlock with a background writer", async () => {
    const user = await signUpUser();
    const camera = ((await (await user.client.post("/api/cameras", { name: "Cam" })).json()) as { id: string }).id;
    // A writer holding the user's camera and then writing a row that refers to the user, as the Insights rollup holds
    // its queued hours and then inserts rows referring to their camera and owner: the deletion, waiting first, loses.
    const deletion = await holdRowThenReferTo({
      hold: (tx) => tx`select 1 from cameras where id = ${camera} for update`,
      deletion: "with gone as (delete from users",
      start: () => user.client.request("DELETE", "/api/auth/me"),
      refer: (tx) => tx`insert into feature_requests (user_id, title, description) values (${user.id}, 'held', 'by a writer')`,
    });
    // The writer got the user while the deletion held it, so PostgreSQL had aborted the deletion: it ran again.
    expect(deletion.status).toBe(204);
    expect((await sql`select count(*)::int as n from users where id = ${user.id}`)[0]!.n).toBe(0);
    expect((await sql`select count(*)::int as n from cameras where id = ${camera}`)[0]!.n).toBe(0);
  });
});
