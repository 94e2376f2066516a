// Runs the fake Moondream alone: `npx tsx tests/fakes/moondream/cli.ts [--port 2020] [--latency 50] [--fixed]`,
// then start the app with MOONDREAM_ENDPOINT=<url printed> and any MOONDREAM_API_KEY (for demos and benchmarks).
import { parseArgs } from "node:util";
import { startFakeMoondream } from "./server";

const { values } = parseArgs({ options: { port: { type: "string", default: "0" }, latency: { type: "string", default: "0" }, fixed: { type: "boolean", default: false } } });
const fake = await startFakeMoondream({ port: Number(values.port), latencyMs: Number(values.latency), analyseImages: !values.fixed });
console.log(JSON.stringify({ msg: "fake moondream listening", url: fake.url, stationUrl: fake.stationUrl }));
const stop = () => void fake.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
