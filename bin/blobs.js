#!/usr/bin/env node
// `npm run blobs -- migrate fs s3` / `migrate s3 fs`: copy the blobs rows refer to into the other store.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ensureBuild } from "./ensure-build.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.env.NODE_ENV ??= "production";
ensureBuild();
const app = await import(pathToFileURL(path.join(root, "build/server/index.js")).href);
process.exit(await app.runBlobsCommand(process.argv.slice(2)));
