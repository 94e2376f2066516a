// POST /logout: ends the session (its row is deleted) and returns to the home page.
import { redirect } from "react-router";
import { destroySession } from "#server/accounts/sessions";
import type { Route } from "./+types/logout";

export async function action({ request }: Route.ActionArgs) {
  return redirect("/", { headers: { "Set-Cookie": await destroySession(request) } });
}

export function loader() {
  return redirect("/");
}
