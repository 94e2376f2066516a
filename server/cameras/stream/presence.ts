// Which app processes are pulling which camera, visible to all of them: each process holds a shared PostgreSQL
// advisory lock per camera its ffmpeg pulls, on one dedicated connection, so the lock goes away with the process
// (or its connection) however it ends. The start-up reset and an idle stop's "offline" then leave alone a camera
// another live process streams (several workers, WEB_CONCURRENCY, or several machines on one database).
// Ownership (docs/decisions/0008-camera-owner.md): an exclusive lock per camera on the same connection names the one
// process that pulls it; the connection's application_name is that process's relay address, so the lock and the
// address live and die together.
// The same connection is the process's identity for work it leases in the database (monitor ticks): it lives exactly as
// long as the process, so pg_stat_activity tells the other processes at once whether a lease's holder is still alive.
import { sql, type RawBuilder } from "kysely";
import postgres, { type Sql } from "postgres";
import { logger } from "../../logger";

/** The advisory lock's first key: "FW" and 1, so the locks never meet another user of the same database's. */
const NAMESPACE = 0x4657_0001;
/** The owner's exclusive lock: "FW" and 2. */
const OWNER_NAMESPACE = 0x4657_0002;
/** The server's local-vision pipeline of a camera (issue 30): "FW" and 3, held by the one process running it. */
const PIPELINE_NAMESPACE = 0x4657_0003;
/** A lost connection that could not be taken again (the database restarting) is tried again this often. */
const RETRY_MS = 1000;

let client: Sql | undefined;
/** This process's presence connection's backend pid (its own locks are not "elsewhere"); null while none. */
let backendPid: number | null = null;
/** The presence connection as other processes see it: its backend pid and start (µs since the epoch, exact as text). */
export interface ProcessIdentity {
  pid: number;
  since: string;
}
let identity: ProcessIdentity | null = null;
/** Told when the presence connection came back as a new backend, before any other change runs on it. */
const identityMoved = new Set<(previous: ProcessIdentity, next: ProcessIdentity) => Promise<void>>();
const held = new Set<string>();
/**
 * Cameras this process owns, with how many of its streams claimed each: the exclusive lock is taken once and let go
 * when the last lets go (a camera's stream being closed and its successor starting overlap).
 */
const owned = new Map<string, number>();
/** Cameras whose local-vision pipeline runs in this process (issue 30). */
const pipelines = new Set<string>();
/** Told when a retake after a lost connection found a camera's pipeline taken by another process meanwhile. */
const pipelinesLost = new Set<(cameraId: string) => void>();
/** Told when a retake after a lost connection found a camera owned by another process meanwhile. */
let onOwnershipLost: (cameraId: string) => void = () => {};
/** Lock changes run one at a time, in order, on the one connection. */
let chain: Promise<void> = Promise.resolve();
/** The connection closed (a database restart): its locks are gone, so all are taken again before the next change. */
let lost = false;

function enqueue(work: (client: Sql) => Promise<void>): void {
  const current = client;
  if (!current) return;
  chain = chain
    .then(async () => {
      if (lost) {
        lost = false;
        await retake(current);
      }
      await work(current);
    })
    .catch((error: unknown) => {
      lost = true;
      logger.warn({ err: error }, "could not record which cameras this process streams; retried in a second");
      // Not only at the next change: the process's identity (its leases' holder) comes back by itself too.
      setTimeout(() => {
        if (client === current && lost) enqueue(async () => {});
      }, RETRY_MS).unref();
    });
}

async function retake(current: Sql): Promise<void> {
  const [row] = await current<{ pid: number; since: string }[]>`select pg_backend_pid() as pid,
    (select (extract(epoch from backend_start) * 1000000)::bigint::text from pg_stat_activity where pid = pg_backend_pid()) as since`;
  const previous = identity;
  const next = { pid: row!.pid, since: row!.since };
  // The leases move before the new identity is in use (processIdentity() is null until then, and this process's own
  // takeover sweep waits), so this process never takes over a tick of its own.
  if (previous && previous.since !== next.since)
    for (const moved of identityMoved)
      await moved(previous, next).catch((error: unknown) => logger.warn({ err: error }, "could not move this process's leases to its new connection"));
  identity = next;
  backendPid = next.pid;
  for (const cameraId of held) await current`select pg_advisory_lock_shared(${NAMESPACE}::int, hashtext(${cameraId}))`;
  for (const cameraId of [...owned.keys()]) {
    const [taken] = await current<{ ok: boolean }[]>`select pg_try_advisory_lock(${OWNER_NAMESPACE}::int, hashtext(${cameraId})) as ok`;
    if (taken!.ok) continue;
    owned.delete(cameraId);
    onOwnershipLost(cameraId);
  }
  for (const cameraId of [...pipelines]) {
    const [taken] = await current<{ ok: boolean }[]>`select pg_try_advisory_lock(${PIPELINE_NAMESPACE}::int, hashtext(${cameraId})) as ok`;
    if (taken!.ok) continue;
    pipelines.delete(cameraId);
    for (const lost of pipelinesLost) lost(cameraId);
  }
}

/**
 * Opens the presence connection (one per app process). Without it, presence is not recorded, nothing is held
 * elsewhere and this process owns every camera it pulls. `relayUrl`: where other processes reach this one's relay
 * (server/cameras/stream/relay.ts), published as the connection's application_name (at most 63 bytes).
 */
export function startCameraPresence(url: string, relayUrl?: string, ownershipLost?: (cameraId: string) => void): void {
  onOwnershipLost = ownershipLost ?? (() => {});
  client = postgres(url, {
    connection: { application_name: relayUrl ?? "framewise" },
    max: 1,
    idle_timeout: 0,
    max_lifetime: null, // a recycled connection would drop the locks
    connect_timeout: 5,
    onnotice: () => {},
    onclose: () => {
      if (!client) return;
      backendPid = null;
      lost = true;
      enqueue(async () => {}); // take them again now, not at the next change
    },
  });
  lost = true;
  enqueue(async () => {}); // connect now: the backend pid (and the identity leases are taken under) is known from the start
}

/** This process's identity for leases, while its presence connection is up; null without one (one process). */
export function processIdentity(): ProcessIdentity | null {
  return client && backendPid !== null ? identity : null;
}

/** Calls `listener` whenever the presence connection is replaced (a database restart), so leases follow the process. */
export function onIdentityMoved(listener: (previous: ProcessIdentity, next: ProcessIdentity) => Promise<void>): () => void {
  identityMoved.add(listener);
  return () => identityMoved.delete(listener);
}

/** SQL: the process whose presence connection was backend `pid` started at `start` (columns) is gone. */
export function processGone(pid: RawBuilder<unknown>, start: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`(${pid} is not null and not exists (select 1 from pg_stat_activity a where a.pid = ${pid} and a.backend_start = ${start}))`;
}

/** This process pulls the camera (its ffmpeg is starting or running). Resolves after every earlier change. */
export function markStreaming(cameraId: string): Promise<void> {
  if (!client) return Promise.resolve();
  if (!held.has(cameraId)) {
    held.add(cameraId);
    enqueue(async (c) => {
      await c`select pg_advisory_lock_shared(${NAMESPACE}::int, hashtext(${cameraId}))`;
    });
  }
  return chain;
}

/** This process stopped pulling the camera. Resolves once other processes see it (an "offline" written next is then judged right). */
export function markStopped(cameraId: string): Promise<void> {
  if (!client) return Promise.resolve();
  if (held.delete(cameraId))
    enqueue(async (c) => {
      await c`select pg_advisory_unlock_shared(${NAMESPACE}::int, hashtext(${cameraId}))`;
    });
  return chain;
}

/** SQL fragment (postgres.js): the application_name of another backend holding the camera's owner (or pipeline) lock. */
function ownerAddress(cameraId: string, namespace = OWNER_NAMESPACE) {
  const c = client!;
  return c`select a.application_name from pg_locks l join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.database = (select oid from pg_database where datname = current_database())
      and l.classid = ${namespace}::oid and l.objid = hashtext(${cameraId}::text)::oid and l.objsubid = 2
      and l.granted and l.mode = 'ExclusiveLock' and l.pid <> pg_backend_pid()
    limit 1`;
}

/** An application_name that is a relay address (a process started without one has "framewise"). */
const relayAddress = (name: string | null) => (name && /^https?:\/\//.test(name) ? name : null);

export type Claim = { owner: true } | { owner: false; relayUrl: string | null };

/**
 * Becomes the camera's owner if no live process is: `{ owner: true }`, or the owner's relay address (null when it
 * has none, or let go in between: try again). Always the owner without a presence connection (one process).
 */
export async function claimCamera(cameraId: string): Promise<Claim> {
  if (!client) return { owner: true };
  const claims = owned.get(cameraId);
  if (claims) {
    owned.set(cameraId, claims + 1);
    return { owner: true };
  }
  let claim: Claim = { owner: false, relayUrl: null };
  enqueue(async (c) => {
    const [row] = await c<{ ok: boolean; relay: string | null }[]>`
      select pg_try_advisory_lock(${OWNER_NAMESPACE}::int, hashtext(${cameraId})) as ok, (${ownerAddress(cameraId)}) as relay`;
    if (row!.ok) {
      // A claim made meanwhile by another stream of this process stacked a second lock: keep one.
      if (owned.has(cameraId)) await c`select pg_advisory_unlock(${OWNER_NAMESPACE}::int, hashtext(${cameraId}))`;
      owned.set(cameraId, (owned.get(cameraId) ?? 0) + 1);
      claim = { owner: true };
    } else claim = { owner: false, relayUrl: relayAddress(row!.relay) };
  });
  await chain;
  return claim;
}

/** The relay address of the process that owns the camera, when another one does (a look, not a claim). */
export async function cameraOwner(cameraId: string): Promise<string | null> {
  if (!client || owned.has(cameraId)) return null;
  let relay: string | null = null;
  enqueue(async (c) => {
    const [row] = await c<{ relay: string | null }[]>`select (${ownerAddress(cameraId)}) as relay`;
    relay = relayAddress(row?.relay ?? null);
  });
  await chain;
  return relay;
}

/** This process no longer pulls the camera: another may own it now. */
export function releaseCamera(cameraId: string): Promise<void> {
  if (!client) return Promise.resolve();
  const claims = owned.get(cameraId);
  if (!claims) return chain;
  if (claims > 1) {
    owned.set(cameraId, claims - 1);
    return chain;
  }
  owned.delete(cameraId);
  enqueue(async (c) => {
    await c`select pg_advisory_unlock(${OWNER_NAMESPACE}::int, hashtext(${cameraId}))`;
  });
  return chain;
}

/** This process owns the camera now (its relay serves it to other processes). */
export function ownsCamera(cameraId: string): boolean {
  return !client || owned.has(cameraId);
}

/** SQL: a live process other than `exceptPid` holds a presence lock on the camera whose id is `cameraId` (a column or value). */
const presenceHeld = (cameraId: RawBuilder<unknown>, exceptPid: number) => sql<boolean>`exists (
    select 1 from pg_locks l
    where l.locktype = 'advisory' and l.database = (select oid from pg_database where datname = current_database())
      and l.classid = ${NAMESPACE}::oid and l.objid = hashtext(${cameraId}::text)::oid and l.objsubid = 2
      and l.granted and l.pid <> ${exceptPid}::int
  )`;

/** SQL: another live process pulls the camera whose id is `cameraId` (a column or value). */
export function streamedElsewhere(cameraId: RawBuilder<unknown>): RawBuilder<boolean> {
  return presenceHeld(cameraId, backendPid ?? -1);
}

/**
 * SQL: some live process, this one included, pulls the camera: an 'online' status is only true then (its owner may
 * have died with no one to take over). Always true without a presence connection (one process).
 */
export function streamedAnywhere(cameraId: RawBuilder<unknown>): RawBuilder<boolean> {
  return client ? presenceHeld(cameraId, -1) : sql<boolean>`true`;
}

/**
 * Takes the camera's local-vision pipeline for this process if no live process runs it (issue 30): true, and this
 * process alone runs it until `releasePipeline` or its death (the lock goes with its connection, and a survivor's
 * next sweep takes it). Always true without a presence connection (one process).
 */
export async function claimPipeline(cameraId: string): Promise<boolean> {
  if (!client) return true;
  if (pipelines.has(cameraId)) return true;
  let ok = false;
  enqueue(async (c) => {
    const [row] = await c<{ ok: boolean }[]>`select pg_try_advisory_lock(${PIPELINE_NAMESPACE}::int, hashtext(${cameraId})) as ok`;
    ok = row!.ok;
    if (ok) pipelines.add(cameraId);
  });
  await chain;
  return ok;
}

/** This process stopped running the camera's pipeline: another may take it. */
export function releasePipeline(cameraId: string): Promise<void> {
  if (!client || !pipelines.delete(cameraId)) return chain;
  enqueue(async (c) => {
    await c`select pg_advisory_unlock(${PIPELINE_NAMESPACE}::int, hashtext(${cameraId}))`;
  });
  return chain;
}

/** The relay address of the process running the camera's pipeline, when another one does (a look, not a claim). */
export async function pipelineHolder(cameraId: string): Promise<string | null> {
  if (!client || pipelines.has(cameraId)) return null;
  let relay: string | null = null;
  enqueue(async (c) => {
    const [row] = await c<{ relay: string | null }[]>`select (${ownerAddress(cameraId, PIPELINE_NAMESPACE)}) as relay`;
    relay = relayAddress(row?.relay ?? null);
  });
  await chain;
  return relay;
}

/** Calls `listener` when this process lost a pipeline's lock (its connection dropped and another process took it meanwhile). */
export function onPipelineLost(listener: (cameraId: string) => void): () => void {
  pipelinesLost.add(listener);
  return () => pipelinesLost.delete(listener);
}

export async function stopCameraPresence(): Promise<void> {
  const current = client;
  client = undefined;
  held.clear();
  owned.clear();
  pipelines.clear();
  backendPid = null;
  identity = null;
  await chain;
  await current?.end({ timeout: 5 });
}
