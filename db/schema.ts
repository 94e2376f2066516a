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

export interface SignInFailuresTable {
  /** "user:<username_key>" or "ip:<address>" */
  key: string;
  failures: number;
  window_started_at: Timestamp;
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
  webhook_enabled: boolean;
  webhook_event_type: "simple" | "detailed";
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  sign_in_failures: SignInFailuresTable;
  feature_requests: FeatureRequestsTable;
  webhook_settings: WebhookSettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
