// The Database interface Kysely is typed with: one entry per table, columns as PostgreSQL returns them.
import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type UserRole = "user" | "admin";

export interface UsersTable {
  id: Generated<string>;
  username: string;
  /** lower(username): uniqueness ignores case. */
  username_key: string;
  password_hash: string;
  role: ColumnType<UserRole, UserRole | undefined, UserRole>;
  /** AES-256-GCM ciphertext of the user's own Moondream key (base64 iv.tag.data), never the key itself. */
  moondream_key_ciphertext: string | null;
  shared_key_calls_used: Generated<number>;
  created_at: CreatedAt;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token: a database dump reveals no usable session. */
  id: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  user_agent: string | null;
  ip: string | null;
}

export interface AttemptCountersTable {
  /** What is counted, e.g. "signin:user:<username_key>", "signin:ip:<address>", "signup:ip:<address>" (server/accounts/throttle.ts). */
  key: string;
  attempts: number;
  window_started_at: Timestamp;
}

export interface AdminSetupTokenTable {
  /** Always true: the table holds at most one row. */
  id: ColumnType<boolean, boolean | undefined, never>;
  /** AES-256-GCM ciphertext of the token (base64 iv.tag.data). */
  token_ciphertext: string;
  created_at: CreatedAt;
}

export interface FeatureRequestsTable {
  id: Generated<string>;
  user_id: string | null;
  title: string;
  description: string;
  created_at: CreatedAt;
}

export interface WebhookSettingsTable {
  user_id: string;
  webhook_url: string | null;
  webhook_enabled: Generated<boolean>;
  webhook_event_type: Generated<"simple" | "detailed">;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** AES-256-GCM ciphertext of the whsec_ signing secret (user id bound in). */
  secret_ciphertext: ColumnType<string | null, string | null | undefined, string | null>;
  /** Consecutive failed delivery attempts, and when that run began. */
  failure_streak: ColumnType<number, number | undefined, number>;
  failing_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** Why delivery switched the webhook off (410, a long failure run); cleared when the user re-enables it. */
  disabled_reason: ColumnType<string | null, string | null | undefined, string | null>;
  disabled_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type DeliveryStatus = "pending" | "retrying" | "delivered" | "failed" | "cancelled";

export interface WebhookDeliveriesTable {
  /** The webhook-id (msg_…): the same on every attempt, the receiver's idempotency key. */
  id: string;
  user_id: string;
  event_type: string;
  payload: ColumnType<Record<string, unknown>, Record<string, unknown>, Record<string, unknown>>;
  status: ColumnType<DeliveryStatus, DeliveryStatus | undefined, DeliveryStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  response_status: ColumnType<number | null, number | null | undefined, number | null>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the delivery is due (pending: when it was queued; retrying: the backoff's time). */
  next_attempt_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** A worker holds the row until then while it sends it; a lapsed claim makes the row claimable again. */
  claimed_until: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type AlertChannel = "email" | "sms";

export interface AlertContactsTable {
  user_id: string;
  channel: AlertChannel;
  address: string;
  verified_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  code_hash: ColumnType<string | null, string | null | undefined, string | null>;
  code_expires_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  code_attempts: ColumnType<number, number | undefined, number>;
  code_sent_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export interface AlertRulesTable {
  id: Generated<string>;
  user_id: string;
  kind: "detection" | "people_count" | "line_crossed" | "zone_entered" | "zone_exited" | "zone_loitering";
  object: string | null;
  threshold: number | null;
  /** Local-vision rules: the line or zone watched; null: any. */
  target_id: string | null;
  email: Generated<boolean>;
  sms: Generated<boolean>;
  cooldown_seconds: Generated<number>;
  enabled: ColumnType<boolean, boolean | undefined, boolean>;
  last_fired_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  attempt_counters: AttemptCountersTable;
  admin_setup_token: AdminSetupTokenTable;
  feature_requests: FeatureRequestsTable;
  webhook_settings: WebhookSettingsTable;
  cameras: CamerasTable;
  monitors: MonitorsTable;
  presets: PresetsTable;
  stories: StoriesTable;
  photos: PhotosTable;
  story_captions: StoryCaptionsTable;
  count_sessions: CountSessionsTable;
  count_snapshots: CountSnapshotsTable;
  luts: LutsTable;
  scoreboard_readings: ScoreboardReadingsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  alert_contacts: AlertContactsTable;
  alert_rules: AlertRulesTable;
  vision_pace_slots: VisionPaceSlotsTable;
  shared_key_daily_calls: SharedKeyDailyCallsTable;
  vision_zones: VisionZonesTable;
  vision_lines: VisionLinesTable;
  vision_counts: VisionCountsTable;
  vision_call_hours: VisionCallHoursTable;
  vision_event_batches: VisionEventBatchesTable;
  vision_heat: VisionHeatTable;
  vision_heat_days: VisionHeatDaysTable;
  detector_models: DetectorModelsTable;
  camera_watches: CameraWatchesTable;
  sites: SitesTable;
  site_cameras: SiteCamerasTable;
  site_hours: SiteHoursTable;
  site_windows: SiteWindowsTable;
  vision_count_hours: VisionCountHoursTable;
  vision_count_days: VisionCountDaysTable;
  insight_rollup_queue: InsightRollupQueueTable;
  vision_dwell_hours: VisionDwellHoursTable;
  vision_dwell_days: VisionDwellDaysTable;
  insight_settings: InsightSettingsTable;
  insight_shares: InsightSharesTable;
  insight_schedules: InsightSchedulesTable;
  timeline_events: TimelineEventsTable;
  timeline_words: TimelineWordsTable;
  timeline_settings: TimelineSettingsTable;
  search_words: SearchWordsTable;
  saved_searches: SavedSearchesTable;
  saved_search_hits: SavedSearchHitsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

export interface CamerasTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  model: Generated<string>;
  status: Generated<string>;
  device_id: string | null;
  /** The webcam's label where it was added: on another browser, where ids differ, the camera is found by it. */
  device_label: string | null;
  /** The full picture of a static-photo camera (its preview and capture source). */
  image_key: string | null;
  image_mime_type: string | null;
  thumbnail_key: string | null;
  thumbnail_etag: string | null;
  video_width: number | null;
  video_height: number | null;
  frame_rate: number | null;
  /** 'device': a browser webcam or static photo; 'ip': a network camera the server pulls. */
  source: Generated<"device" | "ip">;
  /** Host (or host:port) as entered: all the card shows of an IP camera's address. */
  ip_host: string | null;
  /** Main stream (captures) and sub-stream (viewing), stored without credentials. */
  stream_url: string | null;
  sub_stream_url: string | null;
  snapshot_url: string | null;
  /** AES-256-GCM ciphertext of {"username","password"}, bound to the owner; never sent to a browser. */
  credentials: string | null;
  video_codec: string | null;
  ptz_protocol: string | null;
  ptz_port: number | null;
  /** PTZ discovery (a queued camera_ptz job) has not ended yet. */
  ptz_checking: Generated<boolean>;
  status_reason: string | null;
  created_at: CreatedAt;
}

export type MonitorKind = "auto_capture" | "people_count" | "story" | "local_capture";
export type MonitorState = "running" | "paused" | "stopped" | "error";

export interface MonitorsTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string;
  kind: MonitorKind;
  name: string;
  settings: Record<string, unknown>;
  state: Generated<MonitorState>;
  status_message: string | null;
  failures: Generated<number>;
  last_run_at: Date | null;
  last_result: Record<string, unknown> | null;
  last_error: string | null;
  next_run_at: Date | null;
  recording_id: string | null;
  created_at: CreatedAt;
  /** A tick runs until then at most (its lease); null when none runs. */
  lease_until: Date | null;
  /**
   * The process holding the lease, or the last one that held it (it books the next tick after letting go): its
   * presence connection's backend pid and start; null for a process without one (server/cameras/stream/presence.ts).
   */
  lease_pid: number | null;
  lease_backend_start: Date | null;
  /** When the last auto-capture photo was saved: the minimum gap is measured from it. */
  last_saved_at: Date | null;
}

export interface PresetsTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string;
  name: string;
  number: number | null;
  position: PresetPosition | null;
  created_at: CreatedAt;
}

export interface StoriesTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string | null;
  camera_name: string | null;
  title: string;
  featured_photo_id: string | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

export interface PresetPosition {
  pan: number;
  tilt: number;
  zoom: number;
}

export interface DetectionBoxRow {
  x_min: number;
  y_min: number;
  x_max: number;
  y_max: number;
  label?: string | undefined;
}

export interface PhotosTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string | null;
  camera_name: string | null;
  story_id: string | null;
  capture_mode: "single" | "burst" | "timelapse";
  auto_capture: Generated<boolean>;
  detection_query: string | null;
  /** jsonb: postgres.js serialises the array itself (a pre-stringified value would be stored as a JSON string). */
  detection_boxes: DetectionBoxRow[] | null;
  video_width: number | null;
  video_height: number | null;
  frame_rate: number | null;
  width: number;
  height: number;
  bytes: number;
  mime_type: string;
  image_key: string;
  thumbnail_key: string;
  etag: string;
  /** Moondream's answer about this frame (a local-vision event's "describe with Moondream"). */
  description: string | null;
  created_at: CreatedAt;
  /** Maintained by the photos_search trigger (db/migrations/0024-search.ts): labels A, captions B, names C. */
  search: ColumnType<string, string | undefined, string>;
  /** Lower-case detection query and box labels, by the same trigger: the label facet. */
  labels: ColumnType<string[], string[] | undefined, string[]>;
  /** Person boxes, by the same trigger: the "people ≥ N" facet. */
  people_count: ColumnType<number, number | undefined, number>;
  /** The photo this one was made from by an edit (server/photo-edits), null once that photo is deleted. */
  source_photo_id: string | null;
  edit_kind: PhotoEditKind | null;
}

export type PhotoEditKind = "cutout" | "blur" | "crop";

export interface StoryCaptionsTable {
  id: Generated<string>;
  story_id: string;
  caption: string;
  photo_id: string | null;
  captured_at: CreatedAt;
}

export interface CountSessionsTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string | null;
  camera_name: string | null;
  title: string;
  featured_snapshot_id: string | null;
  average_count: number | null;
  min_count: number | null;
  max_count: number | null;
  snapshot_count: Generated<number>;
  created_at: CreatedAt;
  finished_at: Date | null;
  /** Who counted: Moondream per snapshot, or the studio's on-device detector. */
  source: Generated<"moondream" | "local">;
}

export interface CountSnapshotsTable {
  id: Generated<string>;
  session_id: string;
  user_id: string;
  image_key: string;
  thumbnail_key: string;
  etag: string;
  mime_type: string;
  ai_count: number;
  ai_count_min: number | null;
  ai_count_max: number | null;
  corrected_count: number | null;
  corrected_count_min: number | null;
  corrected_count_max: number | null;
  captured_at: CreatedAt;
}

export interface LutsTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  size: number;
  lut_data: string;
  builtin: Generated<boolean>;
  created_at: CreatedAt;
}

export type Sport = "soccer" | "football" | "basketball";

export interface ScoreboardReadingsTable {
  user_id: string;
  sport: Sport;
  home_team: string | null;
  home_score: number | null;
  away_team: string | null;
  away_score: number | null;
  period: string | null;
  time_remaining: string | null;
  /** bigint: postgres.js returns it as a string. */
  version: ColumnType<string, string | number | undefined, string | number>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** One row per Moondream key: the next free slot on its pace timeline (server/vision/pace-slots.ts). */
export interface VisionPaceSlotsTable {
  /** SHA-256 of the key, never the key itself. */
  key_hash: string;
  next_slot: Timestamp;
}

/** Calls taken from the shared key's daily pool, per key and UTC day (server/vision/queries.ts). */
export interface SharedKeyDailyCallsTable {
  key_hash: string;
  /** date: postgres.js returns it as a Date (at UTC midnight); the queries read it as day::text. */
  day: Timestamp;
  calls: Generated<number>;
}

export interface VisionPointRow {
  x: number;
  y: number;
}

interface VisionRegionColumns {
  id: Generated<string>;
  user_id: string;
  camera_id: string;
  name: string;
  /** jsonb: the classes counted; empty: every class. */
  labels: Generated<string[]>;
  anchor: Generated<string>;
  /** Zones: inertia frames; lines: settle frames. */
  frames: Generated<number>;
  /** Save a photo of the event's frame with its box. */
  capture_photo: Generated<boolean>;
  /** The question put to Moondream about the event's frame; null: none. */
  describe_prompt: string | null;
  created_at: CreatedAt;
}

export interface VisionZonesTable extends VisionRegionColumns {
  /** jsonb: 3–32 points, normalised 0–1. */
  geometry: VisionPointRow[];
  loiter_seconds: number | null;
}

export interface VisionLinesTable extends VisionRegionColumns {
  /** jsonb: the directed segment a → b, normalised 0–1. */
  geometry: { a: VisionPointRow; b: VisionPointRow };
  /** Always null for lines (the column is shared with zones). */
  loiter_seconds: number | null;
}

export type VisionCountKind = "in" | "out" | "entered" | "exited" | "loitering";

export interface VisionCountsTable {
  user_id: string;
  camera_id: string;
  line_id: string | null;
  zone_id: string | null;
  minute: Timestamp;
  label: string;
  kind: VisionCountKind;
  count: number;
}

export interface VisionCallHoursTable {
  user_id: string;
  /** The start of the hour (UTC). */
  hour: Timestamp;
  /** One of AI_FEATURES (app/schemas/vision.ts). */
  feature: string;
  calls: number;
}

export interface VisionEventBatchesTable {
  user_id: string;
  /** The studio's batchId: the same id sent again is a resend. */
  id: string;
  received_at: CreatedAt;
}

/** Where tracks walked and stayed on one camera in one UTC hour (db/migrations/0022-vision-heat.ts). */
export interface VisionHeatTable {
  user_id: string;
  camera_id: string;
  /** The start of the hour (UTC). */
  hour: Timestamp;
  cols: number;
  rows: number;
  /** integer[]: passes into each cell, row by row from the top left. */
  walk: number[];
  /** real[]: seconds tracks spent in each cell. */
  stay: number[];
}

/** The same grids summed per UTC day (kept with the hours, in the same statement): long periods read these. */
export interface VisionHeatDaysTable {
  user_id: string;
  camera_id: string;
  /** The start of the day (UTC midnight). */
  day: Timestamp;
  cols: number;
  rows: number;
  walk: number[];
  stay: number[];
}

/** An administrator's ONNX detector (db/migrations/0017-detector-models.ts); its bytes are in the blob store. */
export interface DetectorModelsTable {
  id: Generated<string>;
  name: string;
  format: "yolo" | "detr";
  pixel_scaling: "unit" | "imagenet";
  /** jsonb: the class names, in class-id order. */
  labels: string[];
  input_width: number;
  input_height: number;
  byte_size: number;
  /** SHA-256 (hex) of the model's bytes: its ETag and the version in its URL. */
  sha256: string;
  blob_key: string;
  /** Null once the uploader's account is gone. */
  uploaded_by: string | null;
  /** The studios' detector; at most one row is (a unique partial index), none means the built-in one. */
  active: Generated<boolean>;
  created_at: CreatedAt;
}

/** What the process running a camera's pipeline last measured (app/schemas/watch.ts `PipelineStats`). */
export interface PipelineStatsRow {
  state: "starting" | "running" | "stalled";
  reason: string | null;
  decodeFps: number;
  detectFps: number;
  droppedFrames: number;
  detectorMs: number;
  cpuPercent: number;
  tracks: number;
}

export interface CameraWatchesTable {
  camera_id: string;
  user_id: string;
  enabled: Generated<boolean>;
  /** jsonb: the classes the camera is watched for. */
  labels: string[];
  fps: number;
  width: number;
  stats: PipelineStatsRow | null;
  stats_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  last_event_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** jsonb: PTZ follow on the server (app/schemas/watch.ts's FollowInput), null until first set. */
  follow: ColumnType<FollowSettingRow | null, FollowSettingRow | null | undefined, FollowSettingRow | null>;
  /** When a manual PTZ command paused the follow; null: not paused. */
  follow_paused_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

/** camera_watches.follow as stored (app/schemas/watch.ts's FollowInput; db/ imports nothing from app/). */
export interface FollowSettingRow {
  enabled: boolean;
  label: string;
  startZoneId: string | null;
  returnPreset: number | null;
  lostSeconds: number;
  zoom: boolean;
  targetHeight: number;
  maxSpeed: number;
}

// Insights (migration 0021): sites, their windows, the rollups of vision_counts, dwell histograms, settings, sharing.
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export interface SitesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  time_zone: string;
  day_starts_at: Generated<number>;
  capacity: number | null;
  /** jsonb: [{lineId, entering}] (app/schemas/insights.ts Door). */
  doors: ColumnType<{ lineId: string; entering: "in" | "out" }[], { lineId: string; entering: "in" | "out" }[] | undefined, { lineId: string; entering: "in" | "out" }[]>;
  created_at: Generated<Date>;
  /** The doors site_hours was built for (server/insights/site-hours.ts doorsKey); null until built. */
  hours_doors: Generated<string | null>;
}

/** A site's entries and exits per UTC hour through its doors (server/insights/site-hours.ts). */
export interface SiteHoursTable {
  site_id: string;
  hour: Date;
  entries: number;
  exits: number;
}

export interface SiteCamerasTable {
  camera_id: string;
  site_id: string;
  user_id: string;
}

export interface SiteWindowsTable {
  id: Generated<string>;
  site_id: string;
  user_id: string;
  name: string;
  kind: "weekly" | "once" | "closed";
  /** jsonb: 0 = Sunday … 6 = Saturday. */
  weekdays: ColumnType<number[], number[] | undefined, number[]>;
  starts_at: string;
  ends_at: string;
  /** once, closed: YYYY-MM-DD (text: a local date, never an instant). */
  date: string | null;
  created_at: Generated<Date>;
}

interface RollupColumns {
  user_id: string;
  camera_id: string;
  line_id: string | null;
  zone_id: string | null;
  label: string;
  kind: VisionCountKind;
  count: number;
}
export interface VisionCountHoursTable extends RollupColumns {
  hour: Timestamp;
}
export interface VisionCountDaysTable extends RollupColumns {
  /** The local date in `time_zone` (postgres.js reads a date as UTC midnight: select day::text for the date itself). */
  day: ColumnType<Date, string, string>;
  time_zone: string;
}

export interface InsightRollupQueueTable {
  camera_id: string;
  hour: Timestamp;
}

export interface VisionDwellHoursTable {
  user_id: string;
  camera_id: string;
  zone_id: string;
  hour: Timestamp;
  label: string;
  bucket: number;
  count: number;
}

export interface VisionDwellDaysTable {
  user_id: string;
  camera_id: string;
  zone_id: string;
  /** The UTC date (postgres.js reads a date as UTC midnight). */
  day: ColumnType<Date, string, string>;
  label: string;
  bucket: number;
  count: number;
}

export interface InsightSettingsTable {
  user_id: string;
  time_zone: string;
  minute_retention_days: number;
}

export interface InsightSharesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  kind: "report" | "widget";
  /** jsonb: app/schemas/insights.ts SavedView. */
  view: Record<string, unknown>;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export interface InsightSchedulesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  frequency: "weekly" | "monthly";
  recipients: string[];
  /** jsonb: app/schemas/insights.ts ReportFilter. */
  view: Record<string, unknown>;
  next_run_at: Timestamp;
  last_sent_at: NullableTimestamp;
  created_at: Generated<Date>;
}

export type TimelineEventType =
  | "line.crossed"
  | "zone.entered"
  | "zone.exited"
  | "zone.loitering"
  | "photo.auto_captured"
  | "monitor.result"
  | "monitor.error"
  | "alert.sent"
  | "alert.failed"
  | "webhook.failed";

export interface TimelineEventsTable {
  id: Generated<string>;
  user_id: string;
  camera_id: string | null;
  camera_name: string | null;
  type: TimelineEventType;
  label: string | null;
  target_name: string | null;
  photo_id: string | null;
  description: string | null;
  /** jsonb: what else the event carries (direction, dwell, box, monitor, channel, response status…). */
  detail: ColumnType<Record<string, unknown>, Record<string, unknown> | undefined, Record<string, unknown>>;
  occurred_at: Timestamp;
  /** Generated (weighted tsvector of class, description, names and the type's words): never written. */
  search: ColumnType<string, undefined, never>;
}

export interface TimelineWordsTable {
  user_id: string;
  word: string;
}

export interface TimelineSettingsTable {
  user_id: string;
  retention_days: ColumnType<number, number | undefined, number>;
}

/** A user's indexed words (simple, unstemmed), for expanding a misspelt query word to its nearest spellings. */
export interface SearchWordsTable {
  user_id: string;
  word: string;
}

/** The text query and facets of a saved search (app/schemas/search.ts searchFiltersSchema). */
export interface SavedSearchQuery {
  q?: string | undefined;
  label?: string | undefined;
  cameraId?: string | undefined;
  captureMode?: "single" | "burst" | "timelapse" | undefined;
  autoCapture?: boolean | undefined;
  storyId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  minPeople?: number | undefined;
}

export interface SavedSearchesTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  query: SavedSearchQuery;
  notify_webhook: Generated<boolean>;
  notify_email: Generated<boolean>;
  notify_sms: Generated<boolean>;
  created_at: CreatedAt;
}

/** A saved search fired for a photo: at most once per pair (the primary key). */
export interface SavedSearchHitsTable {
  saved_search_id: string;
  photo_id: string;
  created_at: CreatedAt;
}
