// Runs the fake IP camera alone for demos and benchmarks: `npx tsx tests/fakes/ip-camera/cli.ts [--user admin]
// [--password admin] [--video file.mp4]`; prints its URLs as one JSON line and runs until SIGINT/SIGTERM.
import { parseArgs } from "node:util";
import { startFakeIpCamera } from "./camera";

const { values } = parseArgs({ options: { user: { type: "string", default: "admin" }, password: { type: "string", default: "admin" }, video: { type: "string" } } });
const camera = await startFakeIpCamera({ username: values.user, password: values.password, video: values.video });
console.log(
  JSON.stringify({
    msg: "fake ip camera listening",
    main: camera.rtspUrl("/1"),
    sub: camera.rtspUrl("/2"),
    snapshot: camera.snapshotUrl(),
    mjpeg: camera.mjpegUrl(),
    onvif: camera.onvifUrl,
    control: camera.controlUrl,
  }),
);
const stop = () => void camera.close().then(() => process.exit(0));
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
