// Bring your own detector (issue 29) over HTTP: administrators upload ONNX detectors (checked by ONNX Runtime before
// anything is kept), pick the deployment's one, delete them; every signed-in user reads which one is active and
// downloads its bytes. The deployment-wide choice is this file's own: it runs its own app on its own database and
// data directory, so the studios of other test files never see these models.
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COCO_LABELS } from "#app/studio/local-vision/coco-labels";
import { createDb } from "#db/index";
import { activePoolModel } from "#server/local-detector/service";
import { FileBlobStore } from "#server/storage/file-blob-store";
import { referencedBlobKeys } from "#server/storage/orphan-sweeper";
import { Client, signUpUser, type TestUser } from "../support/client";
import { classifierModel, detrDetector, yoloDetector } from "../support/onnx-model";
import { startApp, tempDir, type TestApp } from "../support/stack";
import { logEntries } from "../support/processes";
import { createOwnDatabase, until } from "../support/webhook-receiver";

const LABELS = ["person", "forklift"];
const MB = 1024 * 1024;
const yolo = yoloDetector([{ cx: 20, cy: 20, w: 8, h: 8, scores: [0.9, 0.1] }], LABELS.length);
const detr = detrDetector([{ cx: 0.5, cy: 0.5, w: 0.2, h: 0.2, scores: [4, -2] }], LABELS.length, { inputSize: 96 });

let app: TestApp;
let databaseUrl: string;
let sql: postgres.Sql;
let dataDir: string;
let admin: TestUser;
let user: TestUser;

beforeAll(async () => {
  databaseUrl = await createOwnDatabase();
  dataDir = tempDir("local-detector");
  app = await startApp({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  // The first account made from this machine is the deployment's administrator.
  admin = await signUpUser({ baseUrl: app.url });
  user = await signUpUser({ baseUrl: app.url });
}, 60_000);
afterAll(async () => {
  await sql?.end();
  await app?.stop();
});

interface Fields {
  name?: string;
  format?: string;
  pixelScaling?: string;
  labels?: string;
  activate?: string;
}

function form(fields: Fields, file: Uint8Array | null = yolo): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) data.append(name, value);
  if (file) data.append("file", new Blob([file as Uint8Array<ArrayBuffer>]), "model.onnx");
  return data;
}

const upload = (client: Client, fields: Fields, file?: Uint8Array | null) => client.request("POST", "/api/admin/detector-models", { body: form(fields, file) });

async function refusal(response: Response) {
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  return (await response.json()) as { status: number; detail: string; errors?: Record<string, string[]> };
}

/** The model files in the app's blob store. */
function storedModelFiles(): string[] {
  const dir = path.join(dataDir, "blobs", "detector-models");
  return existsSync(dir) ? readdirSync(dir) : [];
}

/** How many uploads the app's request log says it answered with 413. */
const refusedUploads = () =>
  logEntries(app).filter((entry) => entry.req?.method === "POST" && entry.req.url === "/api/admin/detector-models" && entry.res?.statusCode === 413).length;

const rowCount = async () => Number((await sql<{ count: string }[]>`select count(*) from detector_models`)[0]!.count);

async function localDetector(client: Client) {
  const response = await client.get("/api/local-detector");
  expect(response.status).toBe(200);
  return (await response.json()) as { kind: string; id?: string; name: string; labels: string[]; modelUrl?: string; sha256?: string };
}

async function removeAll() {
  const models = (await (await admin.client.get("/api/admin/detector-models")).json()) as Array<{ id: string }>;
  for (const model of models) expect((await admin.client.request("DELETE", `/api/admin/detector-models/${model.id}`)).status).toBe(204);
}

describe("uploading a detector", () => {
  it("keeps a YOLO and a DETR model with what ONNX Runtime read off them, newest first, and serves their bytes", async () => {
    await removeAll();
    const first = await upload(admin.client, { name: "Forklifts v8", format: "yolo", labels: " person \n\nforklift\n" }, yolo);
    expect(first.status).toBe(201);
    const yoloModel = await first.json();
    expect(yoloModel).toEqual({
      id: expect.any(String),
      name: "Forklifts v8",
      format: "yolo",
      pixelScaling: "unit",
      labels: LABELS,
      inputWidth: 64,
      inputHeight: 64,
      sha256: createHash("sha256").update(yolo).digest("hex"),
      bytes: yolo.byteLength,
      uploadedAt: expect.any(String),
      uploadedBy: admin.username,
      active: false,
    });
    const second = await upload(admin.client, { name: "DETR", format: "detr", pixelScaling: "imagenet", labels: JSON.stringify(LABELS) }, detr);
    expect(second.status).toBe(201);
    const detrModel = await second.json();
    expect(detrModel).toMatchObject({ format: "detr", pixelScaling: "imagenet", labels: LABELS, inputWidth: 96, inputHeight: 96, bytes: detr.byteLength });

    const list = (await (await admin.client.get("/api/admin/detector-models")).json()) as Array<{ id: string }>;
    expect(list.map((model) => model.id)).toEqual([detrModel.id, yoloModel.id]);
    expect(storedModelFiles().sort()).toEqual([`${detrModel.id}.onnx`, `${yoloModel.id}.onnx`].sort());

    // A normal user's studio: the built-in detector until an administrator picks a model.
    expect(await localDetector(user.client)).toEqual({ kind: "built-in", name: "CenterNet (COCO, built in)", labels: COCO_LABELS });
    expect((await user.client.get("/api/local-detector/model")).status).toBe(404);

    const chosen = await admin.client.request("PUT", "/api/admin/local-detector", { json: { modelId: yoloModel.id } });
    expect(chosen.status).toBe(200);
    const current = await localDetector(user.client);
    expect(current).toEqual({
      kind: "onnx",
      id: yoloModel.id,
      name: "Forklifts v8",
      format: "yolo",
      pixelScaling: "unit",
      labels: LABELS,
      inputWidth: 64,
      inputHeight: 64,
      sha256: yoloModel.sha256,
      bytes: yolo.byteLength,
      modelUrl: `/api/local-detector/model?v=${yoloModel.sha256}`,
    });
    expect(await chosen.json()).toEqual(current);

    const download = await user.client.get(current.modelUrl!);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("application/octet-stream");
    expect(download.headers.get("content-length")).toBe(String(yolo.byteLength));
    expect(download.headers.get("etag")).toBe(`"${yoloModel.sha256}"`);
    expect(download.headers.get("cache-control")).toBe("private, max-age=31536000, immutable");
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(yolo))).toBe(true);
    // Without the version (or with an old one) the browser must ask again; its copy is still good while the ETag is.
    const unversioned = await user.client.get("/api/local-detector/model");
    expect(unversioned.headers.get("cache-control")).toBe("private, no-cache");
    await unversioned.arrayBuffer();
    expect((await user.client.get("/api/local-detector/model", { "if-none-match": `"${yoloModel.sha256}"` })).status).toBe(304);
  });

  it("makes a model active at once when asked, and one upload's choice replaces the other's", async () => {
    await removeAll();
    const response = await upload(admin.client, { name: "At once", format: "yolo", labels: "person\nforklift", activate: "true" });
    expect(response.status).toBe(201);
    const model = await response.json();
    expect(model.active).toBe(true);
    expect((await localDetector(user.client)).id).toBe(model.id);
  });
});

describe("refusing a model that does not fit", () => {
  const cases: Array<[string, Fields, Uint8Array, "file" | "labels", RegExp]> = [
    [
      "a file that is not ONNX",
      { name: "Text", format: "yolo", labels: "person" },
      new TextEncoder().encode("not a model at all"),
      "file",
      /^ONNX Runtime cannot open this file as a model/,
    ],
    [
      "a label list longer than the model's classes (its output's shape)",
      { name: "Three", format: "yolo", labels: "person\nforklift\ndog" },
      yolo,
      "file",
      /^The model's output "output0" is \[1, 6, 1\]; a YOLO detector with 3 labels answers \[1, 7, boxes\] .*Does the label list match the model\?$/,
    ],
    ["a classifier", { name: "Classifier", format: "yolo", labels: "person\nforklift" }, classifierModel(), "file", /^The model's output "probs" is \[1, 1002\]/],
    ["a YOLO model said to be DETR", { name: "Wrong format", format: "detr", labels: "person\nforklift" }, yolo, "file", /a DETR-family detector with 2 labels/],
    [
      "an empty label list",
      { name: "No labels", format: "yolo", labels: " \n \n" },
      yolo,
      "labels",
      /^The label list is empty: give the model's class names, one per line, in the order of its class ids\.$/,
    ],
    [
      "a label named twice",
      { name: "Twice", format: "yolo", labels: "person\nperson" },
      yolo,
      "labels",
      /^The label list names "person" twice; each class id needs its own name\.$/,
    ],
  ];

  it.each(cases)("refuses %s with 422 and the check's message under the field, keeping nothing", async (_what, fields, file, field, message) => {
    const [rowsBefore, filesBefore] = [await rowCount(), storedModelFiles().length];
    const response = await upload(admin.client, fields, file);
    expect(response.status).toBe(422);
    const problem = await refusal(response);
    expect(problem.detail).toMatch(message);
    expect(problem.errors).toEqual({ [field]: [problem.detail] });
    expect(await rowCount()).toBe(rowsBefore);
    expect(storedModelFiles()).toHaveLength(filesBefore);
  });

  it("refuses missing or bad fields with 400 naming each field", async () => {
    const response = await upload(admin.client, { name: " ", format: "onnx", pixelScaling: "raw", labels: "[1, 2]" }, null);
    expect(response.status).toBe(400);
    const { errors } = await refusal(response);
    expect(Object.keys(errors!).sort()).toEqual(["file", "format", "labels", "name", "pixelScaling"]);
    expect(errors!.file).toEqual(["Choose the model's .onnx file"]);
    expect(errors!.name).toEqual(["Give the model a name"]);
    const json = await admin.client.post("/api/admin/detector-models", { name: "JSON" });
    expect(json.status).toBe(415);
  });

  it("refuses an upload declaring more than 200 MB with 413 before reading it", async () => {
    const [rowsBefore, filesBefore] = [await rowCount(), storedModelFiles().length];
    const boundary = "framewise-test-boundary";
    // Sends the headers and the form's start only: the answer comes while the rest (never sent) is "on its way".
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(`${app.url}/api/admin/detector-models`, {
        method: "POST",
        headers: { cookie: admin.client.cookieHeader, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(250 * MB) },
      });
      request.on("response", (response) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () => {
          resolve({ status: response.statusCode ?? 0, body });
          request.destroy();
        });
      });
      request.on("error", reject);
      request.write(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHuge\r\n`);
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 413, detail: "The upload is larger than 200 MB" });
    expect(await rowCount()).toBe(rowsBefore);
    expect(storedModelFiles()).toHaveLength(filesBefore);
  });

  it("refuses a chunked upload (no declared length) with 413 once it has sent more than 200 MB", async () => {
    const [rowsBefore, filesBefore] = [await rowCount(), storedModelFiles().length];
    const boundary = "framewise-test-boundary";
    const block = Buffer.alloc(MB, 7);
    const refusalsBefore = refusedUploads();
    // Sends 1 MB blocks (chunked: no Content-Length) until the server answers or cuts the connection, at most 210 MB.
    // The server answers 413 and closes the connection (nothing says how much is still coming), so the client
    // usually sees the reset of its unread bytes rather than the answer: the app's request log says what it answered.
    const outcome = await new Promise<{ status: number; sent: number }>((resolve) => {
      let sent = 0;
      let done = false;
      const request = http.request(`${app.url}/api/admin/detector-models`, {
        method: "POST",
        headers: { cookie: admin.client.cookieHeader, "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      request.on("response", (response) => {
        done = true;
        response.resume();
        resolve({ status: response.statusCode ?? 0, sent });
        request.destroy();
      });
      request.on("error", () => {
        done = true;
        resolve({ status: 0, sent });
      });
      request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.onnx"\r\n\r\n`);
      const send = () => {
        while (!done && sent < 210 * MB) {
          sent += block.length;
          if (!request.write(block)) return void request.once("drain", send);
        }
        if (!done) request.end();
      };
      send();
    });
    expect([0, 413]).toContain(outcome.status);
    expect(outcome.sent).toBeGreaterThan(200 * MB);
    await until(
      async () => refusedUploads(),
      (count) => count === refusalsBefore + 1,
      10_000,
    );
    expect(await rowCount()).toBe(rowsBefore);
    expect(storedModelFiles()).toHaveLength(filesBefore);
    // And the app is still there.
    expect((await admin.client.get("/api/admin/detector-models")).status).toBe(200);
  });
});

describe("choosing and deleting the deployment's detector", () => {
  it("goes back to the built-in detector when the active model is deleted, and removes its file", async () => {
    await removeAll();
    const model = await (await upload(admin.client, { name: "Doomed", format: "yolo", labels: "person\nforklift", activate: "true" })).json();
    expect((await localDetector(user.client)).kind).toBe("onnx");
    expect((await admin.client.request("DELETE", `/api/admin/detector-models/${model.id}`)).status).toBe(204);
    expect(await localDetector(user.client)).toMatchObject({ kind: "built-in" });
    expect(storedModelFiles()).toEqual([]);
    expect(await rowCount()).toBe(0);
    expect((await admin.client.request("DELETE", `/api/admin/detector-models/${model.id}`)).status).toBe(404);
    const unknown = await admin.client.request("PUT", "/api/admin/local-detector", { json: { modelId: model.id } });
    expect(unknown.status).toBe(404);
  });

  it("leaves exactly one model active when two administrators pick different ones at the same moment", async () => {
    await removeAll();
    const ids: string[] = [];
    for (const name of ["A", "B", "C"]) ids.push((await (await upload(admin.client, { name, format: "yolo", labels: "person\nforklift" })).json()).id);
    for (let round = 0; round < 5; round++) {
      const [a, b] = round % 2 ? [ids[0]!, ids[1]!] : [ids[1]!, ids[2]!];
      const answers = await Promise.all([a, b].map((modelId) => admin.client.request("PUT", "/api/admin/local-detector", { json: { modelId } })));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const active = await sql<{ id: string }[]>`select id from detector_models where active`;
      expect(active).toHaveLength(1);
      expect([a, b]).toContain(active[0]!.id);
      expect((await localDetector(user.client)).id).toBe(active[0]!.id);
    }
    expect((await admin.client.request("PUT", "/api/admin/local-detector", { json: { modelId: null } })).status).toBe(200);
    expect(await localDetector(user.client)).toMatchObject({ kind: "built-in" });
  });
});

describe("the model's file", () => {
  it("is one the orphan sweep keeps and the blobs command copies", async () => {
    await removeAll();
    const model = await (await upload(admin.client, { name: "Kept", format: "yolo", labels: "person\nforklift" })).json();
    const db = createDb(databaseUrl, 1);
    try {
      expect(await referencedBlobKeys(db)).toContain(`detector-models/${model.id}.onnx`);
    } finally {
      await db.destroy();
    }
  });
});

describe("the server's detector pool", () => {
  it("runs the active model with its stored bytes, and the built-in one when none is active", async () => {
    await removeAll();
    const db = createDb(databaseUrl, 1);
    const blobs = new FileBlobStore(path.join(dataDir, "blobs"));
    try {
      expect(await activePoolModel(db, blobs)).toEqual({ kind: "built-in" });
      await upload(admin.client, { name: "Dock", format: "yolo", labels: "person\nforklift", activate: "true" });
      expect(await activePoolModel(db, blobs)).toEqual({ kind: "onnx", name: "Dock", format: "yolo", pixelScaling: "unit", labels: LABELS, bytes: yolo });
    } finally {
      await db.destroy();
    }
  });
});

describe("the OpenAPI document", () => {
  it("describes the upload as multipart/form-data with the file as binary", async () => {
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown>; required: string[] } }> } }>>;
    };
    const schema = doc.paths["/api/admin/detector-models"]!.post!.requestBody!.content["multipart/form-data"]!.schema;
    expect(schema.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(schema.properties.format).toMatchObject({ enum: ["yolo", "detr"] });
    expect(schema.required).toEqual(expect.arrayContaining(["name", "format", "file"]));
    expect(doc.paths["/api/local-detector"]!.get).toBeDefined();
    expect(doc.paths["/api/admin/local-detector"]!.put).toBeDefined();
  });
});

describe("who may", () => {
  it("answers 403 to a non-admin and 401 to anonymous callers on every admin route, and 401 on the detector for anonymous", async () => {
    const someId = "00000000-0000-4000-8000-000000000000";
    const adminRoutes: Array<[string, string, string | undefined]> = [
      ["GET", "/api/admin/detector-models", undefined],
      ["POST", "/api/admin/detector-models", undefined],
      ["PUT", "/api/admin/local-detector", JSON.stringify({ modelId: null })],
      ["DELETE", `/api/admin/detector-models/${someId}`, undefined],
    ];
    const rowsBefore = await rowCount();
    for (const [method, route, json] of adminRoutes) {
      const body: BodyInit | undefined = method === "POST" ? form({ name: "Sneaky", format: "yolo", labels: "person\nforklift" }) : json;
      const headers = json ? { "content-type": "application/json" } : undefined;
      const forbidden = await user.client.request(method, route, { body, headers });
      expect(forbidden.status, `${method} ${route}`).toBe(403);
      await refusal(forbidden);
      expect((await new Client(app.url).request(method, route, { body, headers })).status, `${method} ${route}`).toBe(401);
    }
    expect(await rowCount()).toBe(rowsBefore);
    for (const route of ["/api/local-detector", "/api/local-detector/model"]) expect((await new Client(app.url).get(route)).status).toBe(401);
  });
});
