// Studio-data benchmarks: listing and paging 10 000 photos (latency and JSON bytes per photo, against the
// size a list of data URLs would have), and POST /api/photos of a 1920×1080 JPEG at 1 and 8 clients.
import postgres from "postgres";
import { noisyJpegBytes } from "../tests/support/images";
import { startApp, startTestPostgres, tempDir } from "../tests/support/stack";
import { load, machine, ms, table, verdict } from "./lib";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const PHOTOS = 10_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export async function runStudioDataBenchmarks(): Promise<string> {
  const pg = await startTestPostgres();
  const databaseUrl = await pg.createDatabase();
  const app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: tempDir("bench-data") });
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    const signup = await fetch(`${app.url}/api/auth/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "photographer", password: "bench-password" }),
    });
    const cookie = signup.headers.getSetCookie()[0]!.split(";")[0]!;
    const { id: userId } = (await signup.json()) as { id: string };
    const headers = { cookie, "content-type": "application/json" };

    // One real upload, then 9 999 more rows like it (their blobs are not read by lists).
    const jpeg = await noisyJpegBytes(1920, 1080);
    const body = JSON.stringify({ imageData: `data:image/jpeg;base64,${jpeg.toString("base64")}`, captureMode: "single", videoWidth: 1920, videoHeight: 1080, frameRate: 30 });
    const first = await fetch(`${app.url}/api/photos`, { method: "POST", headers, body });
    if (first.status !== 201) throw new Error(`upload failed: ${first.status} ${await first.text()}`);
    await sql`
      insert into photos (user_id, capture_mode, auto_capture, detection_query, detection_boxes, video_width, video_height, frame_rate, width, height, bytes, mime_type, image_key, thumbnail_key, etag, created_at)
      select user_id, capture_mode, i % 7 = 0, case when i % 7 = 0 then 'person' end,
             case when i % 7 = 0 then '[{"x_min":0.1,"y_min":0.2,"x_max":0.4,"y_max":0.9}]'::jsonb end,
             video_width, video_height, frame_rate, width, height, bytes, mime_type, image_key, thumbnail_key, etag, now() - make_interval(secs => i)
      from photos, generate_series(1, ${PHOTOS - 1}) as i where user_id = ${userId}
    `;
    await sql`analyze photos`;

    // Listing the newest 100 under load.
    const listUrl = `${app.url}/api/photos?limit=100`;
    const sample = await fetch(listUrl, { headers: { cookie } });
    const sampleBytes = Buffer.byteLength(await sample.text());
    const listLoad = await load({ url: listUrl, connections: 8, seconds: SECONDS, headers: { cookie } });

    // Paging through all 10 000, one page after another.
    const pageTimes: number[] = [];
    let totalBytes = 0;
    let seen = 0;
    let next: string | null = `/api/photos?limit=100`;
    while (next) {
      const started = performance.now();
      const response: Response = await fetch(`${app.url}${next}`, { headers: { cookie } });
      const text = await response.text();
      pageTimes.push(performance.now() - started);
      totalBytes += Buffer.byteLength(text);
      seen += (JSON.parse(text) as unknown[]).length;
      const cursor = response.headers.get("x-next-cursor");
      next = cursor ? `/api/photos?limit=100&cursor=${cursor}` : null;
    }
    pageTimes.sort((a, b) => a - b);
    const dataUrlBytesPerPhoto = Math.ceil(jpeg.length / 3) * 4 + "data:image/jpeg;base64,".length;

    // Uploads of the 1080p JPEG at 1 and 8 concurrent clients.
    const upload = async (connections: number) => load({ url: `${app.url}/api/photos`, connections, seconds: SECONDS, headers, method: "POST", body });
    const one = await upload(1);
    const eight = await upload(8);

    const perPhoto = sampleBytes / 100;
    return [
      "## Studio data",
      "",
      `### Listing ${PHOTOS.toLocaleString("en")} photos of one user`,
      "",
      table(
        ["measure", "figure", "target / comparison"],
        [
          ["GET /api/photos?limit=100, 8 clients: p50 / p99", `${ms(listLoad.p50)} / ${ms(listLoad.p99)}`, `p50 ≤ 30 ms ${verdict(listLoad.p50 <= 30)}`],
          ["… requests/s (errors)", `${listLoad.requestsPerSecond.toFixed(0)} (${listLoad.errors + listLoad.non2xx})`, ""],
          ["JSON bytes per photo in a list", `${perPhoto.toFixed(0)} B`, `≤ 1 KB ${verdict(perPhoto <= 1024)}`],
          [
            `paging all ${seen.toLocaleString("en")} (100 a page): page p50 / p99`,
            `${ms(percentile(pageTimes, 50))} / ${ms(percentile(pageTimes, 99))}`,
            `total ${(totalBytes / 2 ** 20).toFixed(1)} MiB`,
          ],
          [
            "the same list as data URLs of these 1080p JPEGs",
            `${((dataUrlBytesPerPhoto * PHOTOS) / 2 ** 30).toFixed(2)} GiB`,
            `${Math.round((dataUrlBytesPerPhoto * PHOTOS) / totalBytes)}× the URL list`,
          ],
        ],
      ),
      "",
      `### POST /api/photos with a 1920×1080 JPEG (${(jpeg.length / 1024).toFixed(0)} KB) including intake and the 320 px thumbnail`,
      "",
      table(
        ["clients", "requests/s", "p50", "p99", "errors / non-2xx", "target"],
        [
          [1, one.requestsPerSecond.toFixed(1), ms(one.p50), ms(one.p99), `${one.errors} / ${one.non2xx}`, `p50 ≤ 40 ms ${verdict(one.p50 <= 40)}`],
          [8, eight.requestsPerSecond.toFixed(1), ms(eight.p50), ms(eight.p99), `${eight.errors} / ${eight.non2xx}`, ""],
        ],
      ),
    ].join("\n");
  } finally {
    await sql.end();
    await app.stop();
    await pg.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`Machine: ${machine()}\n`);
  console.log(await runStudioDataBenchmarks());
}
