#!/usr/bin/env node
// Fixes three bugs of postgres.js 3.4.9 (open upstream: porsager/postgres#1154, #1208, #1199; PRs #1168/#1209) in
// node_modules, so that a PostgreSQL restart neither takes the app down nor leaves it failing afterwards (both
// found by `npm run test:faults`):
//  1. A small write is deferred with setImmediate(nextWrite); when the socket closes first, nextWrite calls
//     socket.write on null and throws from the immediate — an uncaught exception that kills the process.
//     Patched: with no socket, the pending queries are rejected with CONNECTION_CLOSED (the app answers 503).
//  2. closed()/terminate() clear that timer without forgetting it (nor the buffered bytes), so after a reconnect
//     the connection never flushes again or sends stale bytes. Patched: both are reset.
//  3. Releasing a reserved connection (Kysely reserves one for every query) that closed meanwhile puts the dead
//     connection back among the open ones, where every later query fails with CONNECTION_CLOSED (#1199). Patched:
//     a connection that is no longer in the reserved state is left to the pool, which reconnects it.
//  4. A reserve() waiting for a connection is lost when that connection closes (#1195): the pool hands it to the
//     reconnect, which drops it, so the request waits forever; and a reserve rejected by a failed connect stays
//     queued and later swallows a healthy connection. Patched: a waiting reserve stays queued until it settles,
//     settles once, and leaves the queue when it is rejected.
// Idempotent; runs after `npm ci` (postinstall) and before every start, build and test (bin/ensure-build.js). When
// the package no longer has the code it patches (an upgrade), it says so and changes nothing.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const MARK = "framewise patch (porsager/postgres#1208)";
const DIRS = ["src", "cjs/src", "cf/src"];

const CONNECTION_EDITS = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    `  function nextWrite(fn) {\n    if (!socket) { // ${MARK}\n      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)\n`,
  ],
  ["    clearImmediate(nextWriteTimer)\n    if (socket) {\n", "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    if (socket) {\n"],
  ["    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n", "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)\n"],
];

const INDEX_EDITS = [
  [
    "        const query = { reserve: resolve, reject }\n",
    `        // ${MARK}, #1195: settles once; rejected, it leaves the queue; a connection offered later is passed on\n        let settled = false\n        const query = {\n          reserve: c => settled ? onopen(c) : (settled = true, resolve(c)),\n          reject: e => settled || (settled = true, queries.remove(query), reject(e))\n        }\n`,
  ],
  [
    "    queries.length && connect(c, queries.shift())\n  }\n",
    `    // ${MARK}, #1195: a waiting reserve stays queued (the reconnect would drop it)\n    const next = queries.length ? queries.shift() : null\n    next && next.reserve && queries.push(next)\n    next && connect(c, next)\n  }\n`,
  ],
  [
    "    sql.release = () => {\n      c.reserved = null\n      onopen(c)\n    }\n",
    `    sql.release = () => {\n      c.reserved = null\n      // ${MARK}, #1199: closed while reserved, it is the pool's to reconnect, not an open connection\n      ;(c.queue === reserved || c.queue === full) && onopen(c)\n    }\n`,
  ],
];

export function patchPostgres() {
  for (const [file, EDITS] of DIRS.flatMap((dir) => [[`${dir}/connection.js`, CONNECTION_EDITS], [`${dir}/index.js`, INDEX_EDITS]])) {
    const target = path.join(root, "node_modules/postgres", file);
    if (!existsSync(target)) continue;
    const source = readFileSync(target, "utf8");
    const pending = EDITS.filter(([, to]) => !source.includes(to));
    if (!pending.length) continue;
    if (!pending.every(([from]) => source.includes(from))) {
      console.warn(`bin/patch-postgres.js: ${file} of postgres does not have the code it fixes (upgraded?); left unchanged`);
      continue;
    }
    const patched = pending.reduce((text, [from, to]) => text.replace(from, to), source);
    try {
      writeFileSync(target, patched);
    } catch (error) {
      console.warn(`bin/patch-postgres.js: could not patch ${file} (${error.code ?? error}); a PostgreSQL restart may crash the app`);
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) patchPostgres();
