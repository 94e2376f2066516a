// The URL map at a glance: pages, then the JSON API under /api.
import { index, prefix, route, type RouteConfig } from "@react-router/dev/routes";

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
  route("admin", "routes/admin/dashboard.tsx"),

  ...prefix("api", [
    route("auth/login", "routes/api/auth.login.ts"),
    route("auth/signup", "routes/api/auth.signup.ts"),
    route("auth/logout", "routes/api/auth.logout.ts"),
    route("auth/me", "routes/api/auth.me.ts"),
    route("admin/users", "routes/api/admin.users.ts"),
    route("admin/feature-requests", "routes/api/admin.feature-requests.ts"),
    route("feature-requests", "routes/api/feature-requests.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
