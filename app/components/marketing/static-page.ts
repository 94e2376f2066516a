// What makes a public page a static page: React renders it on the server only and the browser gets the
// HTML plus one small script (./page-script) instead of React, React Router and the route modules — about a
// tenth of the JavaScript. Each marketing route exports these two as its `handle` and `clientLoader`.
import { loadAsDocument, type PageHandle } from "../../lib/static-page";
// Vite bundles the script as its own file with a hashed name (a worker build is the one Vite build that
// turns a TypeScript entry into a standalone asset and hands back its URL, in dev and in production).
import pageScript from "./page-script/marketing-page.ts?worker&url";

export const marketingHandle: PageHandle = { hydrate: false, script: pageScript };

export { loadAsDocument as marketingClientLoader };
