// The URL map at a glance: pages, then the JSON API under /api.
import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";
import { operations } from "./schemas/operations/index";

const apiPaths = [...new Set(operations.map((operation) => operation.path))];

export default [
  index("routes/marketing/home.tsx"),
  route("pricing", "routes/marketing/pricing.tsx"),
  route("downloads", "routes/marketing/downloads.tsx"),
  route("eula", "routes/marketing/eula.tsx"),
  route("about", "routes/marketing/about.tsx"),
  route("contact", "routes/marketing/contact.tsx"),
  route("robots.txt", "routes/marketing/robots.ts"),
  route("sitemap.xml", "routes/marketing/sitemap.ts"),
  route("login", "routes/auth/login.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("logout", "routes/auth/logout.ts"),
  route("studio", "routes/studio.tsx"),
  route("studio/insights", "routes/studio-insights.tsx"),
  route("studio/timeline", "routes/studio-timeline.tsx"),
  route("admin", "routes/admin/dashboard.tsx"),
  // A share link's public pages (no session: the link's signature): the read-only report, and the lobby widget.
  route("insights/shared/:id", "routes/insights/shared.tsx"),
  route("insights/widget/:id", "routes/insights/widget.tsx"),

  // Every path of the API's catalogue, generated: one declaration per operation (app/schemas/operations). All go to
  // the one dispatcher module, which finds the operation and its handler (docs/decisions/0013-one-declaration-per-operation.md).
  ...prefix("api", [
    ...apiPaths.map((path) => route(path.replace(/^\/api\//, "").replace(/\{(\w+)\}/g, ":$1"), "routes/api.ts", { id: path.slice(1) })),
    route("*", "routes/api.ts", { id: "api/not-found" }),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
