// IP cameras as live sources (issue 18): where a camera's video comes from and how to log in to it, and the
// monitors that analyse an IP camera on the server with no browser open.
// Credentials are one AES-256-GCM ciphertext of {"username","password"} bound to the owner (like API keys);
// stream URLs are stored without credentials.
import { sql, type Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("cameras")
    // 'device' (a browser webcam or a static photo, as before) or 'ip' (pulled by the server).
    .addColumn("source", "text", (c) =>
      c
        .notNull()
        .defaultTo("device")
        .check(sql`source in ('device', 'ip')`),
    )
    .addColumn("ip_host", "text") // host or host:port as the user typed it: the card shows only this
    .addColumn("stream_url", "text") // the main stream (captures), no credentials
    .addColumn("sub_stream_url", "text") // the sub-stream (viewing), when the camera has one
    .addColumn("snapshot_url", "text") // an HTTP(S) JPEG snapshot, when the camera has one
    .addColumn("credentials", "text") // ciphertext
    .addColumn("video_codec", "text") // as probed: h264, hevc, mjpeg...
    .addColumn("ptz_protocol", "text") // onvif | visca | http-cgi, when PTZ control was found
    .addColumn("ptz_port", "integer")
    .addColumn("status_reason", "text") // why an IP camera is offline, as the card says it
    .execute();

  await db.schema
    .createTable("monitors")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("camera_id", "uuid", (c) => c.notNull().references("cameras.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('auto_capture', 'people_count', 'story')`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("settings", "jsonb", (c) => c.notNull()) // per kind: query, interval, minimum gap...
    // running | paused | stopped (quota or key gone: needs the user) | error (backing off after failures)
    .addColumn("state", "text", (c) => c.notNull().defaultTo("running"))
    .addColumn("status_message", "text")
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_run_at", "timestamptz")
    .addColumn("last_result", "jsonb")
    .addColumn("last_error", "text")
    .addColumn("next_run_at", "timestamptz")
    .addColumn("recording_id", "uuid") // the story or people-count session it writes to
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("monitors_user_idx").on("monitors").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("monitors_camera_idx").on("monitors").column("camera_id").execute();
}

export async function down(): Promise<void> {
  throw new Error("Migrations are forward-only");
}
