// What a signed-in request carries, apart from the code that finds it (sessions.ts), so the session cache can hold it
// without importing that code back.
import type { CurrentUser } from "#app/schemas/auth";

/**
 * A signed-in request: the user, and their stored (still encrypted) Moondream key, read by the same query as
 * the session, so an AI call in the same request skips a second query. Beside the user object, never on it,
 * so the ciphertext cannot reach a JSON answer.
 */
export interface Session {
  user: CurrentUser;
  keyCiphertext: string | null;
}
