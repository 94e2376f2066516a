// Vite plugin: emits people-counter.html into the client build (served at /people-counter.html, the
// /downloads link) and serves a fresh build of it in development.
import type { Plugin } from "vite";
import { PEOPLE_COUNTER_FILE } from "../../components/marketing/content/downloads.ts";
import { buildPeopleCounter, PEOPLE_COUNTER_SOURCES } from "./build.ts";

export function peopleCounterModule(): Plugin {
  return {
    name: "framewise-people-counter",
    async generateBundle() {
      if (this.environment.name !== "client") return;
      for (const source of PEOPLE_COUNTER_SOURCES) this.addWatchFile(source);
      this.emitFile({ type: "asset", fileName: PEOPLE_COUNTER_FILE, source: await buildPeopleCounter() });
    },
    configureServer(server) {
      server.middlewares.use(`/${PEOPLE_COUNTER_FILE}`, (_req, res, next) => {
        buildPeopleCounter().then((html) => {
          res.setHeader("Content-Type", "text/html; charset=utf-8");
          res.end(html);
        }, next);
      });
    },
  };
}
