import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { searchPhotos } from "#server/search/service";
const raw = postgres("postgres://framewise:f8juU8YCXPYzZZOL2xarbLuq@127.0.0.1:39729/fw_twkk4auk", { max: 4, onnotice: () => {} });
const logged: { sql: string; params: readonly unknown[]; ms: number }[] = [];
const db = new Kysely<any>({ dialect: new PostgresJSDialect({ postgres: raw }), log: (e) => { if (e.level === "query") logged.push({ sql: e.query.sql, params: e.query.parameters, ms: e.queryDurationMillis }); } });
const queries = (process.env.QS ?? "q=dog").split(";");
for (const qs of queries) {
  const params = Object.fromEntries(new URLSearchParams(qs));
  const query: any = { limit: 30, ...params, ...(params.minPeople ? { minPeople: Number(params.minPeople) } : {}), ...(params.autoCapture ? { autoCapture: params.autoCapture === "true" } : {}) };
  for (let i = 0; i < 3; i++) await searchPhotos(db as any, "eef1ee17-ca29-45fd-9739-2e96c1c1733f", query);
  logged.length = 0;
  const t = performance.now();
  const r = await searchPhotos(db as any, "eef1ee17-ca29-45fd-9739-2e96c1c1733f", query);
  console.log("==", qs, "total", r.total, "ms", (performance.now() - t).toFixed(1));
  for (const l of logged) console.log("  ", l.ms.toFixed(1), l.sql.slice(0, 60).replace(/\s+/g, " "));
  if (process.env.EXPLAIN) for (const l of logged.filter((l) => l.ms > 3)) {
    const plan = await raw.unsafe("explain (analyze, buffers off, costs off) " + l.sql, l.params as any[]);
    console.log(plan.map((p: any) => p["QUERY PLAN"]).join("\n"));
  }
}
await raw.end();
