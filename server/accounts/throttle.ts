// Sign-in brute-force throttle: failures counted per username and per IP in a fixed window, kept in
// PostgreSQL so every app server behind a load balancer agrees.
import { sql } from "kysely";
import type { DB } from "../../db/index";
import { config } from "../config";

export interface ThrottleKeys {
  usernameKey: string;
  ip: string | null;
}

function keysOf({ usernameKey, ip }: ThrottleKeys) {
  const { maxFailuresPerUsername, maxFailuresPerIp } = config().signInThrottle;
  const keys = [{ key: `user:${usernameKey}`, max: maxFailuresPerUsername }];
  if (ip) keys.push({ key: `ip:${ip}`, max: maxFailuresPerIp });
  return keys;
}

/** Seconds until sign-in is allowed again, or 0 when it is allowed now. */
export async function secondsUntilAllowed(db: DB, target: ThrottleKeys): Promise<number> {
  const windowMs = config().signInThrottle.windowMinutes * 60_000;
  const keys = keysOf(target);
  const rows = await db
    .selectFrom("sign_in_failures")
    .select(["key", "failures", "window_started_at"])
    .where("key", "in", keys.map((k) => k.key))
    .execute();
  let wait = 0;
  for (const row of rows) {
    const max = keys.find((k) => k.key === row.key)?.max ?? Infinity;
    const endsAt = row.window_started_at.getTime() + windowMs;
    if (row.failures >= max && endsAt > Date.now()) wait = Math.max(wait, Math.ceil((endsAt - Date.now()) / 1000));
  }
  return wait;
}

export async function recordFailure(db: DB, target: ThrottleKeys): Promise<void> {
  const window = `${config().signInThrottle.windowMinutes} minutes`;
  for (const { key } of keysOf(target)) {
    await sql`
      insert into sign_in_failures (key, failures, window_started_at) values (${key}, 1, now())
      on conflict (key) do update set
        failures = case when sign_in_failures.window_started_at < now() - ${window}::interval then 1 else sign_in_failures.failures + 1 end,
        window_started_at = case when sign_in_failures.window_started_at < now() - ${window}::interval then now() else sign_in_failures.window_started_at end
    `.execute(db);
  }
}

/** A successful sign-in clears the username's count (the IP's stays: one good account must not unlock guessing others). */
export async function clearUsernameFailures(db: DB, usernameKey: string): Promise<void> {
  await db.deleteFrom("sign_in_failures").where("key", "=", `user:${usernameKey}`).execute();
}
