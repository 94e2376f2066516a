// Adding and re-addressing IP cameras: discovery within the 5 s answer budget (PTZ is looked for afterwards), failures as 422 problems naming
// the field, credentials sealed at rest, and the old stream stopped when the address changes.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Camera, IpCameraAddress, IpCameraCreateInput, IpCameraUpdateInput } from "#app/schemas/cameras";
import type { PtzProtocol } from "#app/schemas/ptz";
import type { CamerasTable } from "#db/schema";
import type { Selectable } from "kysely";
import type { DB } from "#db/index";
import { withDeadline } from "../deadline";
import { notFound, ProblemError } from "../errors";
import { logger } from "../logger";
import { CAMERA_TIMEOUT_MS } from "../ptz/driver";
import { CameraAddressError } from "./camera-url";
import { discoverCamera, reprobeLogin, type DiscoveredCamera } from "./discovery";
import { queuePtzCheck } from "./ptz-check";
import * as q from "./queries";
import { toCamera } from "./service";
import { sealCredentials } from "./source";
import type { LiveStreams } from "./stream/index";

/** Discovery's hard deadline; the answer (DB write included) leaves within 5 s. */
const DISCOVERY_DEADLINE_MS = 4500;
/**
 * Like the PTZ relay, "unreachable" answers no sooner than a silent camera would: otherwise the answer's timing
 * would tell which hosts and ports exist behind the server.
 */
const UNREACHABLE_FLOOR_MS = CAMERA_TIMEOUT_MS;

export async function createIpCamera(db: DB, userId: string, input: IpCameraCreateInput): Promise<Camera> {
  const found = await discover(input);
  const row = await db.transaction().execute(async (trx) => {
    const inserted = await q.insertCamera(trx, { id: randomUUID(), user_id: userId, name: input.name, ...columns(found, userId) });
    await checkPtzLater(trx, inserted);
    return inserted;
  });
  return toCamera(row);
}

/** A new address (probed like a new camera) or a new login for the stored one; the running stream is stopped. */
export async function updateIpCamera(db: DB, streams: LiveStreams, userId: string, id: string, input: IpCameraUpdateInput): Promise<Camera> {
  const existing = await q.findCamera(db, userId, id);
  if (!existing || existing.source !== "ip" || !existing.stream_url) throw notFound("Camera");
  const found =
    "streamUrl" in input || "host" in input
      ? await discover(input)
      : await discover({ username: input.username, password: input.password }, () => reprobeLogin(stored(existing), { username: input.username, password: input.password }));
  const row = await db.transaction().execute(async (trx) => {
    const updated = await q.updateCamera(trx, userId, id, columns(found, userId));
    if (updated) await checkPtzLater(trx, updated);
    return updated;
  });
  if (!row) throw notFound("Camera");
  await streams.forget(id);
  return toCamera(row);
}

function columns(found: DiscoveredCamera, userId: string) {
  return {
    source: "ip" as const,
    status: "connecting",
    status_reason: null,
    model: found.model ?? "IP camera",
    ip_host: found.host,
    stream_url: found.streamUrl,
    sub_stream_url: found.subStreamUrl,
    snapshot_url: found.snapshotUrl,
    credentials: found.credentials ? sealCredentials(found.credentials, userId) : null,
    video_codec: found.codec,
    ptz_protocol: found.ptz?.protocol ?? null,
    // While PTZ is looked for, ptz_port is the port to look at (server/cameras/ptz-check.ts).
    ptz_port: found.ptzSearch ? found.ptzSearch.port : (found.ptz?.port ?? null),
    ptz_checking: found.ptzSearch !== null,
  };
}

const checkPtzLater = async (db: DB, row: Selectable<CamerasTable>) => {
  if (row.ptz_checking && row.stream_url) await queuePtzCheck(db, { cameraId: row.id, streamUrl: row.stream_url });
};

/** What discovery found when the camera was added, from its row. */
function stored(row: Selectable<CamerasTable>): DiscoveredCamera {
  const ptz = row.ptz_protocol ? { protocol: row.ptz_protocol as PtzProtocol, port: row.ptz_port ?? 80 } : null;
  return {
    host: row.ip_host ?? "",
    streamUrl: row.stream_url!,
    subStreamUrl: row.sub_stream_url,
    snapshotUrl: row.snapshot_url,
    codec: row.video_codec,
    credentials: null,
    model: row.model,
    ptz,
    ptzSearch: row.ptz_checking ? { port: row.ptz_port } : null,
  };
}

async function discover(input: IpCameraUpdateInput, run: () => Promise<DiscoveredCamera> = () => discoverCamera(input as IpCameraAddress)): Promise<DiscoveredCamera> {
  const started = performance.now();
  const field = "streamUrl" in input ? "streamUrl" : "host";
  try {
    return await withDeadline(run(), DISCOVERY_DEADLINE_MS, () => new CameraAddressError("unreachable", "The camera did not answer in time: check its address, port and network"));
  } catch (error) {
    if (!(error instanceof CameraAddressError)) throw error;
    if (error.kind === "unreachable") {
      logger.info({ detail: error.message }, "IP camera unreachable");
      await sleep(Math.max(0, started + UNREACHABLE_FLOOR_MS - performance.now()));
    }
    const errors =
      error.kind === "auth"
        ? { password: ["authentication failed"], ...(field === "streamUrl" ? { streamUrl: ["authentication failed"] } : {}) }
        : { [field]: [error.kind === "unreachable" ? "unreachable" : error.message] };
    const title = { refused: "Camera address not allowed", auth: "Camera authentication failed", unreachable: "Camera unreachable", unsupported: "No camera stream found" }[
      error.kind
    ];
    throw new ProblemError(422, error.message, { title, errors });
  }
}
