// SIGKILL during 50 concurrent photo uploads, then a restart: every upload answered 201 must be there with its
// image and thumbnail, no row may point at a missing blob, and blobs written for uploads that never committed
// (orphans, interrupted temporary files) must be swept at start-up once older than the grace period.
import path from "node:path";
import { markerImage } from "../fakes/moondream/images";
import { Session, waitFor } from "../load/lib";
import { freePort, startApp, startTestPostgres, tempDir, type TestApp } from "../support/stack";
import { auditBlobs, countPhotoRows } from "./blob-audit";
import { Findings, type Section } from "./report";

const CONCURRENT = 50;

export async function sigkillDuringUploads(): Promise<Section> {
  const f = new Findings();
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const dataDir = tempDir("faults-kill");
  const blobDir = path.join(dataDir, "blobs");
  // A fixed port: the restarted app is the same origin, so the users' sessions (kept in PostgreSQL) still work.
  const env = { DATABASE_URL: databaseUrl, DATA_DIR: dataDir, BLOB_ORPHAN_GRACE_SECONDS: "1", PORT: String(await freePort()) };
  let app: TestApp = await startApp(env);
  try {
    const frame = `data:image/jpeg;base64,${(await markerImage({ width: 1280, height: 720, quality: 85, noise: 20 })).toString("base64")}`;
    const body = JSON.stringify({ imageData: frame, captureMode: "single", videoWidth: 1280, videoHeight: 720, frameRate: 30 });
    const users = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const s = new Session(app.url);
        await s.signUp(`faults_kill_${i}`);
        return s;
      }),
    );
    const acked: Array<{ s: Session; id: string }> = [];
    let sent = 0;
    let failed = 0;
    let killed = false;
    // Every user keeps one upload in flight, so 50 are under way when the kill comes.
    const uploads = users.map(async (s) => {
      while (!killed) {
        sent++;
        try {
          const response = await s.request("POST", "/api/photos", body, { timeoutMs: 60_000 });
          if (response.status === 201) acked.push({ s, id: ((await response.json()) as { id: string }).id });
          else failed++;
        } catch {
          failed++; // the connection died with the server: not acknowledged
        }
      }
    });
    await waitFor("uploads to be acknowledged", async () => acked.length >= 30, 120_000, 20);
    const pid = app.process.pid!;
    killed = true;
    app.process.kill("SIGKILL");
    await app.stop();
    await Promise.all(uploads);
    const afterKill = await auditBlobs(databaseUrl, blobDir);
    f.notes.push(
      `Killed process ${pid} with SIGKILL while ${CONCURRENT} uploads of a 1280×720 JPEG were in flight: ${sent} sent, ${acked.length} acknowledged (201), ${failed} cut off. Right after the kill: ${afterKill.rows} rows, ${afterKill.files} files, ${afterKill.unreferenced.length} orphan blobs, ${afterKill.temporaries.length} temporary files, ${afterKill.missing.length} rows' blobs missing.`,
    );

    app = await startApp(env);
    // The sweep logs (at info) only when it removes something: with nothing left behind there is nothing to see.
    const leftBehind = afterKill.unreferenced.length + afterKill.temporaries.length > 0;
    const swept =
      !leftBehind || (await waitFor("the start-up orphan sweep", async () => app.logs.some((chunk) => chunk.includes("orphan blob sweep")), 60_000, 200).catch(() => false));
    const audit = await auditBlobs(databaseUrl, blobDir);

    let lost = 0;
    for (const { s, id } of acked) {
      // The same session cookie: sessions live in PostgreSQL and survive the restart.
      const image = await s.request("GET", `/api/photos/${id}/image`);
      const thumbnail = await s.request("GET", `/api/photos/${id}/thumbnail`);
      if (image.status !== 200 || thumbnail.status !== 200 || (await image.arrayBuffer()).byteLength === 0) lost++;
    }
    f.lost = lost;
    f.check(
      `SIGKILL during ${CONCURRENT} concurrent uploads, then restart`,
      "every acknowledged photo there with image and thumbnail",
      `${acked.length - lost} of ${acked.length} acknowledged photos readable (image and thumbnail 200)`,
      lost === 0,
    );
    f.check("after the restart: rows vs blobs", "no row points at a missing blob", `${audit.rows} rows; ${audit.missing.length} missing blobs`, audit.missing.length === 0);
    f.check(
      "after the restart: files vs rows",
      "orphan blobs and temporary files swept at start-up",
      `start-up sweep ${swept ? "ran" : "NOT seen in the log"}; ${afterKill.unreferenced.length} orphans and ${afterKill.temporaries.length} temporaries before → ${audit.unreferenced.length} and ${audit.temporaries.length} after`,
      Boolean(swept) && audit.unreferenced.length === 0 && audit.temporaries.length === 0,
    );
    const ackedRows = await countPhotoRows(
      databaseUrl,
      acked.map((a) => a.id),
    );
    f.notes.push(
      `${audit.rows - ackedRows} rows committed whose 201 never reached the client (the kill came between commit and answer): complete, and visible in the user's list.`,
    );
    const upload = await users[0]!.request("POST", "/api/photos", body);
    f.check("after the restart", "uploads work again", `POST /api/photos → ${upload.status}`, upload.status === 201);
  } finally {
    await app.stop();
    await pg.stop();
  }
  return f.section("SIGKILL during concurrent uploads, then restart");
}
