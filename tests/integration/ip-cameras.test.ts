// Adding and editing IP cameras against the production app and the fake IP camera on loopback: discovery by host
// (ONVIF, then the RTSP conventions), by stream URL, the probe's answers (codec, authentication failed,
// unreachable), hostile addresses refused before connecting, owner scoping, PTZ by {cameraId}, and no secret in
// any answer.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import WebSocket from "ws";
import { type FakeIpCamera, startFakeIpCamera } from "../fakes/ip-camera/camera";
import { type FakeOnvif, startFakeOnvif } from "../fakes/ptz/onvif";
import { type Client, signUpUser } from "../support/client";
import { freePort } from "../support/stack";
import { encryptApiKey } from "#server/secret-box";

const sql = postgres(inject("databaseUrl"), { max: 1, onnotice: () => {} });
const baseUrl = inject("baseUrl");
const PASSWORD = "s3cret-Pa55";
let camera: FakeIpCamera;
let client: Client;
let other: Client;

beforeAll(async () => {
  camera = await startFakeIpCamera({ username: "admin", password: PASSWORD });
  const [a, b] = await Promise.all([signUpUser(), signUpUser()]);
  client = a.client;
  other = b.client;
});
afterAll(async () => {
  await camera.close();
  await sql.end();
});

const put = (c: Client, path: string, json: unknown) => c.request("PUT", path, { json });
/** The camera as the API shows it once its PTZ check has ended. */
const afterPtzCheck = async (id: string) => {
  let shown: { ip: { ptzChecking: boolean; ptzProtocol: string | null } } | undefined;
  await vi.waitFor(
    async () => {
      shown = await (await client.get(`/api/cameras/${id}`)).json();
      expect(shown!.ip.ptzChecking).toBe(false);
    },
    { timeout: 20_000, interval: 100 },
  );
  return shown!;
};
const row = async (id: string) => (await sql`SELECT * FROM cameras WHERE id = ${id}`)[0]!;
/** Every answer's text must be free of the camera's password (also percent-encoded, as inside a URL). */
const expectNoSecret = (text: string) => {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toContain(encodeURIComponent(PASSWORD));
  expect(text).not.toMatch(/rtsps?:\/\//);
};

describe("adding an IP camera by host and credentials", () => {
  it("finds the main and sub streams and the snapshot over ONVIF, and PTZ over ONVIF", async () => {
    const host = `127.0.0.1:${camera.ports.onvif}`;
    const response = await client.post("/api/cameras/ip", { name: "Stage left", host, username: "admin", password: PASSWORD });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expectNoSecret(text);
    const created = JSON.parse(text);
    expect(created).toMatchObject({
      name: "Stage left",
      source: "ip",
      status: "connecting",
      statusReason: null,
      ip: { host, path: "/1", codec: "h264", transcoded: false, hasSubStream: true },
    });
    expect(created.model).not.toBe("IP camera");
    expect((await afterPtzCheck(created.id)).ip.ptzProtocol).toBe("onvif");
    const stored = await row(created.id);
    expect(stored).toMatchObject({
      stream_url: camera.rtspUrl("/1"),
      sub_stream_url: camera.rtspUrl("/2"),
      snapshot_url: camera.snapshotUrl(1),
      ptz_protocol: "onvif",
      ptz_port: camera.ports.onvif,
      ptz_checking: false,
    });
    // Sealed at rest: neither the password nor the login's JSON is readable in the row.
    expect(stored.credentials).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(PASSWORD);

    for (const answer of [await client.get("/api/cameras"), await client.get(`/api/cameras/${created.id}`)]) {
      expect(answer.status).toBe(200);
      expectNoSecret(await answer.text());
    }
  });

  it("falls back to the RTSP conventions (/1 main, /2 sub) when ONVIF does not answer", async () => {
    // The typed port is the camera's RTSP port: nothing speaks ONVIF there, so only the conventions can find the streams.
    const host = `127.0.0.1:${camera.ports.rtsp}`;
    const response = await client.post("/api/cameras/ip", { name: "Conventions", host, username: "admin", password: PASSWORD });
    const created = await response.json();
    expect(response.status, JSON.stringify(created)).toBe(201);
    expect(created.ip).toMatchObject({ host, codec: "h264", hasSubStream: true, ptzProtocol: null });
    expect((await afterPtzCheck(created.id)).ip.ptzProtocol).toBeNull();
    expect(await row(created.id)).toMatchObject({ stream_url: camera.rtspUrl("/1"), sub_stream_url: camera.rtspUrl("/2"), snapshot_url: null });
  });

  it("answers a wrong password with 422 errors.password 'authentication failed'", async () => {
    const response = await client.post("/api/cameras/ip", { name: "Wrong", host: `127.0.0.1:${camera.ports.onvif}`, username: "admin", password: "not-it" });
    expect(response.status).toBe(422);
    const problem = await response.json();
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(problem.errors.password).toEqual(["authentication failed"]);
  });
});

describe("PTZ is looked for after the add", () => {
  it("answers the add while the PTZ probe still waits on a silent port, saying ptzChecking; the PTZ found comes after", async () => {
    const onvif = camera.onvif()!;
    // ONVIF answers at once (streams and PTZ), but the HTTP-CGI probe on the same port gets no answer.
    onvif.holdGets = true;
    try {
      const response = await client.post("/api/cameras/ip", { name: "Silent CGI", host: `127.0.0.1:${camera.ports.onvif}`, password: PASSWORD });
      const created = await response.json();
      expect(response.status, JSON.stringify(created)).toBe(201);
      expect(created.ip).toMatchObject({ ptzChecking: true, ptzProtocol: null, codec: "h264" });
      // The probe is under way and held: the camera still says checking.
      await vi.waitFor(() => expect(onvif.held()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      expect((await (await client.get(`/api/cameras/${created.id}`)).json()).ip).toMatchObject({ ptzChecking: true, ptzProtocol: null });
      const listed = (await (await client.get("/api/cameras")).json()).find((c: { id: string }) => c.id === created.id);
      expect(listed.ip.ptzChecking).toBe(true);
      onvif.release();
      expect((await afterPtzCheck(created.id)).ip.ptzProtocol).toBe("onvif");
      expect(await row(created.id)).toMatchObject({ ptz_protocol: "onvif", ptz_port: camera.ports.onvif, ptz_checking: false });
    } finally {
      onvif.release();
    }
  });

  it("a PTZ check for an address the camera has since left writes nothing", async () => {
    const onvif = camera.onvif()!;
    onvif.holdGets = true;
    try {
      const created = await (await client.post("/api/cameras/ip", { name: "Moved", host: `127.0.0.1:${camera.ports.onvif}`, password: PASSWORD })).json();
      await vi.waitFor(() => expect(onvif.held()).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
      // Moved to a stream URL while the first check waits: the new address is checked on its own.
      const url = camera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${encodeURIComponent(PASSWORD)}@`);
      expect((await put(client, `/api/cameras/${created.id}/ip`, { streamUrl: url })).status).toBe(200);
      onvif.release();
      expect((await afterPtzCheck(created.id)).ip.ptzProtocol).toBeNull();
      expect(await row(created.id)).toMatchObject({ stream_url: camera.rtspUrl("/2"), ptz_protocol: null });
    } finally {
      onvif.release();
    }
  });
});

describe("a PTZ check in a process that cannot open the camera's login", () => {
  it("records nothing and passes the check on, a second later, to a process that can (it would otherwise try the default login and write 'no PTZ')", async () => {
    const created = await (await client.post("/api/cameras/ip", { name: "Other key", host: `127.0.0.1:${camera.ports.onvif}`, password: PASSWORD })).json();
    await afterPtzCheck(created.id);
    // As another deployment's key sealed it: this app's key cannot open it.
    const foreign = encryptApiKey(JSON.stringify({ username: "admin", password: PASSWORD }), (await row(created.id)).user_id, randomBytes(32));
    const stored = await row(created.id);
    await sql`UPDATE cameras SET credentials = ${foreign}, ptz_checking = true, ptz_protocol = null WHERE id = ${created.id}`;
    const key = `camera_ptz:${created.id}`;
    await sql`select graphile_worker.add_job('camera_ptz', ${JSON.stringify({ cameraId: created.id, streamUrl: stored.stream_url })}::text::json, max_attempts => 5, job_key => ${key})`;
    // This app cannot open it: the check comes back, passed on, as a new job for the same camera, again and again.
    await vi.waitFor(
      async () => {
        const [job] = await sql<{ payload: { handoffs?: number } }[]>`select payload from graphile_worker._private_jobs where key = ${key}`;
        expect(job?.payload.handoffs).toBeGreaterThanOrEqual(2);
      },
      { timeout: 20_000, interval: 100 },
    );
    expect(await row(created.id)).toMatchObject({ ptz_checking: true, ptz_protocol: null });
    // Deleted, the camera's check ends at its next turn (no row, nothing to check).
    expect((await client.request("DELETE", `/api/cameras/${created.id}`)).status).toBe(204);
  });
});

describe("cameras on one host and port", () => {
  it("show their stream paths, so their cards differ", async () => {
    const login = `rtsp://admin:${encodeURIComponent(PASSWORD)}@`;
    const first = await (await client.post("/api/cameras/ip", { name: "Channel 1", streamUrl: camera.rtspUrl("/1").replace("rtsp://", login) })).json();
    const second = await (
      await client.post("/api/cameras/ip", { name: "Channel 2", streamUrl: `${camera.rtspUrl("/2").replace("rtsp://", login)}?channel=2&password=${PASSWORD}` })
    ).json();
    expect(first.ip.host).toBe(second.ip.host);
    expect(first.ip.path).toBe("/1");
    // A channel parameter is shown; a login parameter never is.
    expect(second.ip.path).toBe("/2?channel=2");
    expectNoSecret(JSON.stringify(await (await client.get("/api/cameras")).json()));
  });
});

describe("whether the server streams a camera now", () => {
  it("tells idle (nobody watching) from failing (watched, with the reason), and goes back to idle when the viewer leaves", async () => {
    const gone = await startFakeIpCamera({ username: "admin", password: PASSWORD });
    try {
      const url = gone.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${encodeURIComponent(PASSWORD)}@`);
      const created = await (await client.post("/api/cameras/ip", { name: "Gone", streamUrl: url })).json();
      await gone.stop(); // nothing listens at its address any more
      const state = async () => {
        const shown = (await (await client.get("/api/cameras")).json()).find((c: { id: string }) => c.id === created.id);
        return { streamState: shown.ip.streamState, statusReason: shown.statusReason };
      };
      // Nobody has watched it since it was added: not streaming, and nothing is known to be wrong.
      await sql`UPDATE cameras SET status = 'offline' WHERE id = ${created.id}`;
      expect(await state()).toEqual({ streamState: "idle", statusReason: null });

      const viewer = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/cameras/${created.id}/live`, { headers: { cookie: client.cookieHeader, origin: baseUrl } });
      viewer.on("error", () => {});
      await vi.waitFor(async () => expect(await state()).toEqual({ streamState: "failing", statusReason: "unreachable" }), { timeout: 30_000, interval: 200 });
      viewer.close();
      // The idle stop (CAMERA_STREAM_IDLE_MS after the last viewer) ends the pull: idle again, no reason.
      await vi.waitFor(async () => expect(await state()).toEqual({ streamState: "idle", statusReason: null }), { timeout: 40_000, interval: 250 });
    } finally {
      await gone.close();
    }
  }, 60_000);
});

describe("adding an IP camera by stream URL", () => {
  it("probes the codec, moves the URL's credentials into the sealed login and never returns them", async () => {
    const url = camera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${encodeURIComponent(PASSWORD)}@`);
    const response = await client.post("/api/cameras/ip", { name: "By URL", streamUrl: url });
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expectNoSecret(text);
    const created = JSON.parse(text);
    expect(created.ip).toMatchObject({ host: `127.0.0.1:${camera.ports.rtsp}`, codec: "h264", hasSubStream: false });
    const stored = await row(created.id);
    expect(stored.stream_url).toBe(camera.rtspUrl("/2"));
    expect(stored.credentials).not.toContain(PASSWORD);
  });

  it("tells an MJPEG stream and a JPEG snapshot apart from their Content-Type", async () => {
    const login = `admin:${encodeURIComponent(PASSWORD)}@`;
    const mjpeg = await client.post("/api/cameras/ip", { name: "MJPEG", streamUrl: camera.mjpegUrl(2).replace("http://", `http://${login}`) });
    expect(mjpeg.status).toBe(201);
    expect((await mjpeg.json()).ip.codec).toBe("mjpeg");
    const snapshot = await client.post("/api/cameras/ip", { name: "Snapshot", streamUrl: camera.snapshotUrl(2).replace("http://", `http://${login}`) });
    expect(snapshot.status).toBe(201);
    const created = await snapshot.json();
    expect(created.ip.codec).toBe("jpeg");
    expect((await row(created.id)).snapshot_url).toBe(camera.snapshotUrl(2));
  });

  it("answers a stream URL with the wrong password with 'authentication failed'", async () => {
    const response = await client.post("/api/cameras/ip", { name: "Wrong", streamUrl: camera.rtspUrl("/1").replace("rtsp://", "rtsp://admin:nope@") });
    expect(response.status).toBe(422);
    expect((await response.json()).errors.password).toEqual(["authentication failed"]);
  });
});

describe("hostile and unusable addresses", () => {
  const hostile = () => [
    "file:///etc/passwd",
    "concat:rtsp://127.0.0.1/1|file:///etc/passwd",
    "subfile:,,start,0,end,0,,:/etc/passwd",
    "data:text/plain;base64,aGVsbG8=",
    "gopher://127.0.0.1:70/_x",
    `rtsp://127.0.0.1:${camera.ports.rtsp}/1;rm -rf /`,
    `rtsp://127.0.0.1:${camera.ports.rtsp}/$(id)`,
    `rtsp://127.0.0.1:${camera.ports.rtsp}/\`id\``,
    `rtsp://127.0.0.1:${camera.ports.rtsp}/1\r\nCSeq: 9`,
    `rtsp://admin:x@127.0.0.1:${camera.ports.rtsp}@169.254.169.254/1`,
    `rtsp://admin@10.0.0.5@127.0.0.1:${camera.ports.rtsp}/1`,
    "rtsp://169.254.169.254/1",
    `rtsp://admin:${PASSWORD}@169.254.169.254:8554/1`,
    "http://10.0.0.1/snapshot.jpg",
    "rtsp://127.0.0.1:22/1",
  ];

  it("refuses each with 422 errors.streamUrl before connecting", async () => {
    const failuresBefore = camera.authFailures();
    for (const streamUrl of hostile()) {
      const response = await client.post("/api/cameras/ip", { name: "Hostile", streamUrl });
      expect(response.status, streamUrl).toBe(422);
      const text = await response.text();
      expect(text).not.toContain(PASSWORD);
      const problem = JSON.parse(text);
      expect(problem.errors.streamUrl, streamUrl).toHaveLength(1);
      // Refused as an address, not probed: a probe's failure would say unreachable, no stream, or authentication failed.
      expect(problem.title, streamUrl).toBe("Camera address not allowed");
    }
    expect(camera.authFailures()).toBe(failuresBefore);
    const hosts = await client.post("/api/cameras/ip", { name: "Hostile", host: "169.254.169.254:8080" });
    expect(hosts.status).toBe(422);
    expect((await hosts.json()).errors.host[0]).toMatch(/cloud metadata/);
  });

  it("refuses an ONVIF answer that points the stream at the cloud metadata address", async () => {
    const liar: FakeOnvif = await startFakeOnvif({
      password: PASSWORD,
      media: [
        { token: "P1", name: "main", width: 1280, height: 720, fps: 15, streamUri: "rtsp://169.254.169.254:8554/1", snapshotUri: "http://169.254.169.254:8080/latest/meta-data/" },
      ],
    });
    try {
      const response = await client.post("/api/cameras/ip", { name: "Liar", host: `127.0.0.1:${liar.port}`, password: PASSWORD });
      expect(response.status).toBe(422);
      const problem = await response.json();
      expect(problem.errors.host[0]).toMatch(/ONVIF answer points at an address this server does not connect to.*169\.254\.169\.254.*cloud metadata/);
    } finally {
      await liar.close();
    }
  });

  it("answers an unreachable camera (a closed port on 127.0.0.1) with 422 within 5 s", async () => {
    const closed = await freePort();
    for (const body of [{ host: `127.0.0.1:${closed}` }, { streamUrl: `rtsp://127.0.0.1:${closed}/1` }]) {
      const started = Date.now();
      const response = await client.post("/api/cameras/ip", { name: "Nowhere", ...body });
      expect(response.status).toBe(422);
      const field = "host" in body ? "host" : "streamUrl";
      expect((await response.json()).errors[field]).toEqual(["unreachable"]);
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it("answers bad input with 400 field errors", async () => {
    const response = await client.post("/api/cameras/ip", { name: " ", host: "127.0.0.1/admin" });
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors.name).toBeDefined();
    expect(problem.errors.host).toEqual(["Enter an IP address or host name, optionally with :port"]);
  });
});

describe("owner scoping, editing and PTZ by camera", () => {
  let id: string;
  beforeAll(async () => {
    const response = await client.post("/api/cameras/ip", { name: "PTZ cam", host: `127.0.0.1:${camera.ports.onvif}`, password: PASSWORD });
    expect(response.status).toBe(201);
    id = (await response.json()).id;
    expect((await afterPtzCheck(id)).ip.ptzProtocol).toBe("onvif");
  });

  it("moves the camera with {cameraId}: the stored host, protocol and login reach the PTZ camera", async () => {
    const onvif = camera.onvif()!;
    const from = onvif.recorder.received.length;
    const response = await client.post("/api/ptz/move", { connection: { cameraId: id }, direction: "left", speed: 12, durationMs: 100 });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(onvif.recorder.received.slice(from).map((r) => r.command.op)).toContain("ContinuousMove");
  });

  it("answers 404 for {cameraId} of a camera without PTZ control or not an IP camera", async () => {
    const byUrl = await client.post("/api/cameras/ip", { name: "No PTZ", streamUrl: camera.rtspUrl("/2").replace("rtsp://", `rtsp://admin:${PASSWORD}@`) });
    const noPtz = await byUrl.json();
    expect(noPtz.ip.ptzProtocol).toBeNull();
    const response = await client.post("/api/ptz/stop", { connection: { cameraId: noPtz.id } });
    expect(response.status).toBe(404);
    expect((await response.json()).detail).toBe("This camera has no PTZ control");
    const webcam = await (await client.post("/api/cameras", { name: "Webcam", deviceId: "cam-1" })).json();
    expect((await client.post("/api/ptz/stop", { connection: { cameraId: webcam.id } })).status).toBe(404);
  });

  it("hides the camera from another user: no get, update, delete, PTZ", async () => {
    expect((await other.get(`/api/cameras/${id}`)).status).toBe(404);
    expect((await put(other, `/api/cameras/${id}/ip`, { host: `127.0.0.1:${camera.ports.onvif}`, password: PASSWORD })).status).toBe(404);
    expect((await other.request("DELETE", `/api/cameras/${id}`)).status).toBe(404);
    expect((await other.post("/api/ptz/move", { connection: { cameraId: id }, direction: "left" })).status).toBe(404);
    expect(await other.get("/api/cameras").then((r) => r.json())).toEqual([]);
  });

  it("updates the address and credentials, re-probing; the answer holds no secret", async () => {
    const url = camera.rtspUrl("/1").replace("rtsp://", `rtsp://admin:${encodeURIComponent(PASSWORD)}@`);
    const response = await put(client, `/api/cameras/${id}/ip`, { streamUrl: url });
    const text = await response.text();
    expect(response.status, text).toBe(200);
    expectNoSecret(text);
    expect(JSON.parse(text).ip).toMatchObject({ host: `127.0.0.1:${camera.ports.rtsp}`, hasSubStream: false });
    expect((await row(id)).stream_url).toBe(camera.rtspUrl("/1"));
    const wrong = await put(client, `/api/cameras/${id}/ip`, { host: `127.0.0.1:${camera.ports.onvif}`, password: "nope" });
    expect(wrong.status).toBe(422);
    expect((await row(id)).stream_url).toBe(camera.rtspUrl("/1"));
  });

  it("takes a new login alone, probing the stored stream with it, and keeps the old login when it fails", async () => {
    const sealed = (await row(id)).credentials;
    const wrong = await put(client, `/api/cameras/${id}/ip`, { username: "admin", password: "nope" });
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).errors.password).toEqual(["authentication failed"]);
    expect((await row(id)).credentials).toBe(sealed);
    const right = await put(client, `/api/cameras/${id}/ip`, { password: PASSWORD });
    const text = await right.text();
    expect(right.status, text).toBe(200);
    expectNoSecret(text);
    expect((await row(id)).credentials).not.toBe(sealed);
  });

  it("deletes the camera", async () => {
    expect((await client.request("DELETE", `/api/cameras/${id}`)).status).toBe(204);
    expect((await client.get(`/api/cameras/${id}`)).status).toBe(404);
  });
});
