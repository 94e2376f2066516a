// A full disk in the blob directory: a 2 MiB tmpfs mounted as BLOB_DIR, photos uploaded until it is full. The
// app must answer 507 problem JSON, leave nothing half-written (no row without its blobs, no blob without its
// row, no temporary file), and accept uploads again once space is freed.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { markerImage } from "../fakes/moondream/images";
import { Session } from "../load/lib";
import { startApp, startTestPostgres, tempDir, type TestApp } from "../support/stack";
import { auditBlobs } from "./blob-audit";
import { Findings, readProblem, type Section } from "./report";

const MAX_UPLOADS = 200;

export async function fullDisk(): Promise<Section> {
  const f = new Findings();
  const blobDir = tempDir("faults-disk-blobs");
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m,mode=0755", "tmpfs", blobDir], { encoding: "utf8" });
  if (mounted.status !== 0) {
    rmSync(blobDir, { recursive: true, force: true });
    const why = `mounting a 2 MiB tmpfs over the blob directory was not permitted (${(mounted.stderr || mounted.error?.message || `exit ${mounted.status}`).trim()}); the full-disk check needs root or CAP_SYS_ADMIN.`;
    f.check("full blob disk", "507, nothing half-written", "skipped", true);
    return f.section("Full disk in the blob directory", why);
  }
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  let app: TestApp | undefined;
  try {
    app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("faults-disk-data"), BLOB_DIR: blobDir });
    const s = new Session(app.url);
    await s.signUp("faults_disk");
    // Noisy 1280×720 JPEGs (~150 KB each plus a thumbnail): a dozen or so fill 2 MiB.
    const frame = `data:image/jpeg;base64,${(await markerImage({ width: 1280, height: 720, quality: 85, noise: 40 })).toString("base64")}`;
    const body = JSON.stringify({ imageData: frame, captureMode: "single" });
    const acked: string[] = [];
    let full: Awaited<ReturnType<typeof readProblem>> | undefined;
    for (let i = 0; i < MAX_UPLOADS && !full; i++) {
      const response = await s.request("POST", "/api/photos", body);
      if (response.status === 201) acked.push(((await response.json()) as { id: string }).id);
      else full = await readProblem(response);
    }
    f.check(
      `uploads into a 2 MiB blob disk until it is full (${acked.length} fitted)`,
      "507 problem JSON with a clear message",
      full ? `${full.status}${full.isProblem ? " problem JSON" : " NOT problem JSON"}: "${full.detail}"` : `no refusal within ${MAX_UPLOADS} uploads`,
      full?.status === 507 && full.isProblem,
    );
    // More attempts on the full disk, at once: each refused the same way, none half-written.
    const more = await Promise.all(Array.from({ length: 5 }, async () => readProblem(await s.request("POST", "/api/photos", body))));
    f.check(
      "5 more uploads at once on the full disk",
      "507 problem JSON each",
      more.map((a) => `${a.status}${a.isProblem ? "" : " (not problem JSON)"}`).join(", "),
      more.every((a) => a.status === 507 && a.isProblem),
    );
    const audit = await auditBlobs(databaseUrl, blobDir);
    f.check(
      "blob disk vs rows after the refusals",
      "rows = acknowledged uploads; no missing blob, no blob without a row, no temporary file",
      `${audit.rows} rows for ${acked.length} acknowledged; ${audit.missing.length} missing, ${audit.unreferenced.length} unreferenced, ${audit.temporaries.length} temporary files`,
      audit.rows === acked.length && audit.missing.length === 0 && audit.unreferenced.length === 0 && audit.temporaries.length === 0,
    );
    // Free space by deleting three photos: uploads work again.
    for (const id of acked.splice(0, 3)) await s.request("DELETE", `/api/photos/${id}`);
    const again = await s.request("POST", "/api/photos", body);
    if (again.status === 201) acked.push(((await again.json()) as { id: string }).id);
    f.check("three photos deleted to free space", "the next upload is accepted", `POST /api/photos → ${again.status}`, again.status === 201);
    let lost = 0;
    for (const id of acked) {
      const image = await s.request("GET", `/api/photos/${id}/image`);
      const thumbnail = await s.request("GET", `/api/photos/${id}/thumbnail`);
      if (image.status !== 200 || thumbnail.status !== 200) lost++;
    }
    f.lost = lost;
    f.check("every acknowledged photo still on the disk", "image and thumbnail readable", `${acked.length - lost} of ${acked.length}`, lost === 0);
  } finally {
    await app?.stop();
    await pg.stop();
    spawnSync("umount", [blobDir]);
    rmSync(blobDir, { recursive: true, force: true });
  }
  return f.section("Full disk in the blob directory");
}
