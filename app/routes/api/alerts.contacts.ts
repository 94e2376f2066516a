// POST /api/alerts/contacts {channel, address}: saves the address and sends it a 6-digit code.
import { db } from "#db/index";
import { startVerification } from "#server/alerts/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  POST: handle(api.alerts.startContact, async ({ user, body, services }) => startVerification(db(), services.mailer, user.id, body)),
});
export const action = loader;
