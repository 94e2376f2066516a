// What makes a public page a static page: React renders it on the server only and the browser gets the
// HTML plus one small script (./page-script, a few KB) instead of React, React Router and the route modules
// (about 125 KB gzipped). Each marketing route exports these two as its `handle` and `clientLoader`.
import { loadAsDocument, type PageHandle } from "../../lib/static-page";
// `?worker&url` makes Vite bundle the script on its own into a hashed asset and hand back its URL, in dev and
// in production alike (the client and server builds name the same file); only the name says "worker".
import pageScript from "./page-script/marketing-page.ts?worker&url";

export const marketingHandle: PageHandle = { hydrate: false, script: pageScript };

export { loadAsDocument as marketingClientLoader };
