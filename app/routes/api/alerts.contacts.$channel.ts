// DELETE /api/alerts/contacts/:channel (email or sms): forgets that contact.
import { db } from "#db/index";
import { removeContact } from "#server/alerts/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  DELETE: handle(api.alerts.removeContact, { resource: "Contact" }, async ({ user, params }) => removeContact(db(), user.id, params.channel as "email" | "sms")),
});
export const action = loader;
