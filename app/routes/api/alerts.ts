// GET /api/alerts → which channels the server can send on, and the user's contacts.
import { db } from "#db/index";
import { alertStatus } from "#server/alerts/service";
import { apiRoute } from "#server/http/api";
import { handle } from "#server/http/operation";
import { api } from "../../schemas/operations/index";

export const loader = apiRoute({
  GET: handle(api.alerts.status, async ({ user }) => alertStatus(db(), user.id)),
});
export const action = loader;
