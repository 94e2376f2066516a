// /sitemap.xml: every public page, with absolute URLs on the site's public origin.
import { publicOrigin } from "#server/http/public-origin";
import { indexablePaths } from "../../components/marketing/content/pages";
import type { Route } from "./+types/sitemap";

export function loader({ request }: Route.LoaderArgs) {
  const origin = publicOrigin(request);
  const urls = indexablePaths.map((path) => {
    const priority = path === "/" ? "1.0" : path === "/eula" ? "0.3" : "0.8";
    return `  <url>\n    <loc>${new URL(path, origin).toString()}</loc>\n    <changefreq>monthly</changefreq>\n    <priority>${priority}</priority>\n  </url>`;
  });
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
