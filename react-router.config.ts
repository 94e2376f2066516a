import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  appDirectory: "app",
  // React Router v8's changes, each decided explicitly (unset, every build and dev start warns about them). Not yet:
  // each changes what the app relies on — the loaders' `context` (our getLoadContext's cspNonce) with v8_middleware,
  // the request pipeline server/http/request-handler.ts drives with v8_passThroughRequests, the build layout with
  // v8_viteEnvironmentApi, client chunks with v8_splitRouteModules, .data URLs with v8_trailingSlashAwareDataRequests.
  future: {
    v8_middleware: false,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
} satisfies Config;
