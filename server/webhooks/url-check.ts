// Webhook URLs are judged when saved, so a refused address is said at once, under the field, instead of at the
// first delivery. A name is resolved now too, but its answer can change, so delivery checks the address it
// connects to again (server/net/guarded-post.ts).
import { within } from "../deadline";
import { urlProblem } from "../net/guarded-post";
import { AddressRefused, canonicalHost, judgeAnswers, localAnswers, systemLookup, type LookupAll } from "../net/resolve";
import type { AddressPolicy } from "../net/address-policy";
import { webhookPolicy } from "./delivery";

/** A slow resolver must not hold the save: past this, the name is accepted and delivery decides. */
const SAVE_LOOKUP_MS = 2000;

/** Why a webhook URL cannot be saved, as the message under the field; null when it may be saved. */
export async function webhookUrlProblem(raw: string, policy: AddressPolicy = webhookPolicy(), lookup: LookupAll = systemLookup): Promise<string | null> {
  const form = urlProblem(raw); // the schema let only http(s) through: what is left is a user name or password
  if (form) return form;
  const host = canonicalHost(new URL(raw).hostname);
  if (host === null) return "This URL has no valid host";
  try {
    const answers = localAnswers(host) ?? (await within(lookup(host), SAVE_LOOKUP_MS));
    if (answers && answers.length > 0) judgeAnswers(host, answers, policy);
  } catch (error) {
    if (!(error instanceof AddressRefused)) return null; // not resolvable now: delivery will try again
    return error.kind === "blocked" ? `This address is blocked on this server: ${error.reason}` : `This address is not reachable from the internet: ${error.reason}`;
  }
  return null;
}
