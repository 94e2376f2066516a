// /studio: signed-in users only (the workspace itself arrives with the studio work).
import { Form, Link } from "react-router";
import { requireUserPage } from "../../server/accounts/sessions";
import { Button } from "../components/ui/button";
import { brand } from "../lib/brand";
import type { Route } from "./+types/studio";

export const meta: Route.MetaFunction = () => [{ title: `Studio | ${brand.productName}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: Route.LoaderArgs) {
  return { user: await requireUserPage(request) };
}

export default function Studio({ loaderData }: Route.ComponentProps) {
  const { user } = loaderData;
  return (
    <div className="flex min-h-screen flex-col">
      <header className="flex items-center justify-between border-b border-ink-700 bg-ink-900 px-4 py-2">
        <span className="font-semibold">{brand.productName}</span>
        <nav className="flex items-center gap-3 text-sm">
          {user.role === "admin" ? (
            <Link to="/admin" className="text-slate-300 hover:text-white">
              Admin
            </Link>
          ) : null}
          <span className="text-slate-400" data-testid="signed-in-user">
            {user.username}
          </span>
          <Form method="post" action="/logout">
            <Button type="submit" variant="ghost">
              Sign out
            </Button>
          </Form>
        </nav>
      </header>
      <main className="flex flex-1 items-center justify-center p-6 text-center">
        <div>
          <h1 className="text-2xl font-semibold">Studio</h1>
          <p className="mt-2 text-slate-400">Signed in as {user.username}.</p>
        </div>
      </main>
    </div>
  );
}
