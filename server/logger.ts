// Structured JSON logs (pino). Secrets are redacted wherever they might appear.
import cluster from "node:cluster";
import { pino } from "pino";
import { config } from "./config";

// Written asynchronously: a synchronous write per line (pino's default) made every request wait on a
// write(2) to stdout, about 5 % of the CPU of an AI call under load (bench/vision.ts). Lines logged while a
// write is under way go out together in the next one; pino flushes what is pending when the process exits.
export const logger = pino(
  {
    level: config().logLevel,
    // With several worker processes (WEB_CONCURRENCY) their lines share one output: each names its process.
    base: cluster.isWorker ? { pid: process.pid } : undefined,
    redact: {
      paths: ["password", "*.password", "apiKey", "*.apiKey", "req.headers.cookie", 'res.headers["set-cookie"]', "req.headers.authorization", 'req.headers["x-moondream-auth"]'],
      censor: "[redacted]",
    },
  },
  pino.destination({ dest: 1, sync: false }),
);
