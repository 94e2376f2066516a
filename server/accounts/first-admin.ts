// The first administrator. While none exists, a sign-up from the server's own machine becomes one (the easy
// local path), and so does a sign-up from anywhere that carries the one-time setup token the server prints in
// its log; any other sign-up makes an ordinary account, so a stranger reaching a fresh instance first owns nothing.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { DB } from "#db/index";
import type { UserRole } from "#db/schema";
import { config } from "../config";
import { ProblemError } from "../errors";
import { decryptApiKey, encryptApiKey } from "../secret-box";
import * as q from "./queries";

/** Bound into the ciphertext, so no other encrypted value can be passed off as the token. */
const PURPOSE = "admin-setup-token";

export const INVALID_SETUP_TOKEN = "That setup token is not valid. It is printed in the server log and works once, until the first administrator exists.";

async function storedToken(db: DB): Promise<string | null> {
  const ciphertext = await q.findSetupTokenCiphertext(db);
  return ciphertext ? decryptApiKey(ciphertext, PURPOSE, config().encryptionKey) : null;
}

export async function discardSetupToken(db: DB): Promise<void> {
  await q.deleteSetupToken(db);
}

/**
 * At start-up: the setup token to print while no administrator exists, the same in every app process (it is
 * kept, encrypted, in PostgreSQL); null once one exists.
 */
export async function setupTokenAtStartUp(db: DB): Promise<string | null> {
  if (await q.adminExists(db)) {
    await discardSetupToken(db);
    return null;
  }
  const fresh = () => encryptApiKey(randomBytes(18).toString("base64url"), PURPOSE, config().encryptionKey);
  await q.storeSetupToken(db, fresh(), false);
  const token = await storedToken(db);
  if (token) return token;
  // Stored under an earlier ENCRYPTION_KEY: nobody can use that one any more.
  await q.storeSetupToken(db, fresh(), true);
  return storedToken(db);
}

function sameToken(a: string, b: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/**
 * The new account's role, decided inside the sign-up transaction (sign-ups are serialised there). A wrong token,
 * or one given once an administrator exists, is refused rather than ignored: whoever typed it expects to be admin.
 */
export function roleForNewAccount(setup: { fromThisMachine: boolean; setupToken?: string | undefined }) {
  return async (trx: DB): Promise<UserRole> => {
    const refused = new ProblemError(403, INVALID_SETUP_TOKEN, { errors: { setupToken: [INVALID_SETUP_TOKEN] } });
    if (await q.adminExists(trx)) {
      if (setup.setupToken) throw refused;
      return "user";
    }
    if (setup.setupToken) {
      const token = await storedToken(trx);
      if (!token || !sameToken(token, setup.setupToken)) throw refused;
    } else if (!setup.fromThisMachine) {
      return "user";
    }
    await discardSetupToken(trx);
    return "admin";
  };
}

/** What the sign-up page offers: the token field for a visitor from elsewhere while no administrator exists. */
export async function signUpPageSetup(db: DB, fromThisMachine: boolean): Promise<{ askForSetupToken: boolean }> {
  return { askForSetupToken: !fromThisMachine && !(await q.adminExists(db)) };
}
