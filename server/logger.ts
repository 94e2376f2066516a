// Structured JSON logs (pino). Secrets are redacted wherever they might appear.
import { pino } from "pino";
import { config } from "./config";

export const logger = pino({
  level: config().logLevel,
  base: undefined,
  redact: {
    paths: [
      "password",
      "*.password",
      "apiKey",
      "*.apiKey",
      "req.headers.cookie",
      'res.headers["set-cookie"]',
      "req.headers.authorization",
      'req.headers["x-moondream-auth"]',
    ],
    censor: "[redacted]",
  },
});
