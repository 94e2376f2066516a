// The process's part of the always-on local vision (issue 30), as the composition root builds it: the supervisor of
// the watched cameras this process runs (supervisor.ts) with its real parts (the camera streams' frames, motion, the
// detector pool on worker threads), and the live scenes the studio reads (live-scene.ts), here or through the relay.
import { db } from "#db/index";
import { ptzConnectionFor } from "../../cameras/ptz-connection";
import { loadCameraSource } from "../../cameras/source";
import type { LiveStreams } from "../../cameras/stream/live-streams";
import type { RelayServer } from "../../cameras/stream/relay";
import { config } from "../../config";
import { createDetectorPool } from "../../local-detector/pool/detector-pool";
import { activeDetectorVersion, activePoolModel } from "../../local-detector/service";
import { logger } from "../../logger";
import type { PtzService } from "../../ptz/service";
import type { BlobStore } from "../../storage/blob-store";
import type { Vision } from "../../vision/service";
import type { RunningPipeline } from "./camera-pipeline";
import { openFrameSource } from "./frame-source";
import { serveSceneRelay, type SceneSource } from "./live-scene";
import { createMotionDetector } from "./motion";
import { startWatchSupervisor, type WatchSupervisor } from "./supervisor";

export interface LocalVisionPipelines extends SceneSource {
  /** Starts taking watched cameras (after the presence connection and the relay are up). */
  start(relay: RelayServer): void;
  /** A setting changed in this process: look now rather than at the next sweep. */
  poke(): void;
  close(): Promise<void>;
}

export function createLocalVisionPipelines(deps: { streams: LiveStreams; blobs: BlobStore; vision: Vision; ptz: PtzService }): LocalVisionPipelines {
  let supervisor: WatchSupervisor | null = null;
  const running = (cameraId: string): RunningPipeline | undefined => supervisor?.running().get(cameraId);
  return {
    running,
    start(relay) {
      if (!config().localVision.pipelines) return; // a web-only process: the deployment's others run the pipelines
      relay.serve("scene", (res, userId, cameraId, closed) => serveSceneRelay({ running }, res, userId, cameraId, closed));
      supervisor = startWatchSupervisor({
        db: db(),
        streams: deps.streams,
        blobs: deps.blobs,
        vision: deps.vision,
        log: logger,
        loadSource: (userId, cameraId) => loadCameraSource(db(), userId, cameraId),
        openFrames: (source, options) => openFrameSource(deps.streams, source, options),
        createMotion: () => createMotionDetector(),
        createPool: async () => createDetectorPool({ size: config().localVision.detectorThreads, model: await activePoolModel(db(), deps.blobs) }),
        detectorVersion: () => activeDetectorVersion(db()),
        reloadPool: async (pool) => pool.reload(await activePoolModel(db(), deps.blobs)),
        // The follow's commands go straight to the PTZ service, never through the HTTP routes: they are not manual.
        followCamera: async (userId, cameraId) => {
          const connection = await ptzConnectionFor(db(), userId, { cameraId });
          return {
            drive: (pan, tilt, zoom) => deps.ptz.drive(connection, pan, tilt, zoom),
            stop: () => deps.ptz.stop(connection, "all"),
            recallPreset: (number) => deps.ptz.preset(connection, "recall", number),
          };
        },
      });
    },
    poke: () => supervisor?.poke(),
    close: async () => supervisor?.close(),
  };
}
