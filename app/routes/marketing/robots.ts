// /robots.txt: crawl the public site, stay out of the signed-in app and the API, and find the sitemap here.
import { publicOrigin } from "#server/http/public-origin";
import type { Route } from "./+types/robots";

export function loader({ request }: Route.LoaderArgs) {
  const body = ["User-agent: *", "Allow: /", "Disallow: /studio", "Disallow: /admin", "Disallow: /api/", "", `Sitemap: ${publicOrigin(request)}/sitemap.xml`, ""].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
