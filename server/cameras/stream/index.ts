// What other server code uses of the camera streams (monitors, the camera service, the routes): one import.
export { createLiveStreams, type LiveStreams } from "./supervisor";
export { SnapshotError, type Snapshot } from "./snapshot";
export type { StreamStatus } from "./status";
