// The long-lived parts of one app process, built once by the composition root (server/composition.ts) and handed
// down: to route handlers through the request's load context (`services` in a handler's arguments), to the job
// queue's tasks through their task list. Nothing else builds them, so a test builds its own the same way.
import type { LiveStreams } from "./cameras/stream/index";
import type { Mailer } from "./alerts/transports";
import type { PtzService } from "./ptz/service";
import type { Vision } from "./vision/service";
import type { BlobStore } from "./storage/blob-store";
import type { LocalVisionPipelines } from "./local-vision/pipeline/pipelines";

export interface Services {
  /** PTZ commands' connection pool and watchdogs (server/ptz/service.ts). */
  ptz: PtzService;
  /** The camera streams this process pulls: live views, snapshots, the relay, monitors' frames (server/cameras/stream/). */
  streams: LiveStreams;
  /** AI calls' Moondream client and its per-key pacer (server/vision/service.ts). */
  vision: Vision;
  /** Where image bytes live (BLOB_STORE: the filesystem or S3; server/storage/blob-store.ts). */
  blobs: BlobStore;
  /** Alerts' and verification codes' e-mail (SMTP_*). */
  mailer: Mailer;
  /** The watched IP cameras' local-vision pipelines this process runs, and their live scenes (server/local-vision/pipeline/). */
  pipelines: LocalVisionPipelines;
}
