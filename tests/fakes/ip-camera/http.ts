// The camera's HTTP side: `/snapshot.jpg` (one JPEG) and `/video.mjpeg` (multipart/x-mixed-replace MJPEG), each
// `?stream=1` (main, default) or `?stream=2` (sub), behind the camera's credentials (Digest or Basic, as configured).
import { type Server, type ServerResponse, createServer } from "node:http";
import type { Socket } from "node:net";
import type { Authenticator } from "./auth";
import type { FrameSource } from "./source";

const BOUNDARY = "framewisefakecamera";

export class CameraHttpServer {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  /** MJPEG responses being streamed now. */
  mjpegClients = 0;
  /** A hostile camera: requests from ffmpeg (User-Agent Lavf…) answered "302 Found" to here; other clients (the app's probe) get the picture. */
  redirectFfmpeg?: string;

  constructor(
    private readonly jpegSources: Map<string, FrameSource>,
    private readonly auth: Authenticator,
  ) {}

  listen(port: number): Promise<number> {
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://camera");
      const source = this.jpegSources.get(`/${url.searchParams.get("stream") ?? "1"}`);
      if (url.pathname !== "/snapshot.jpg" && url.pathname !== "/video.mjpeg") return plain(res, 404, "Not Found");
      if (!source) return plain(res, 404, "No such stream");
      if (this.redirectFfmpeg && req.headers["user-agent"]?.startsWith("Lavf")) return void res.writeHead(302, { Location: this.redirectFfmpeg }).end();
      if (!this.auth.check(req.method ?? "GET", req.headers.authorization)) {
        res.setHeader("WWW-Authenticate", this.auth.challenge());
        return plain(res, 401, "Unauthorized");
      }
      if (url.pathname === "/snapshot.jpg") {
        void source.nextFrame().then((frame) => {
          res.writeHead(200, { "Content-Type": "image/jpeg", "Content-Length": frame.data[0]!.length, "Cache-Control": "no-store" });
          res.end(frame.data[0]);
        });
        return;
      }
      res.writeHead(200, { "Content-Type": `multipart/x-mixed-replace; boundary=${BOUNDARY}`, "Cache-Control": "no-store", Connection: "close" });
      this.mjpegClients++;
      const unsubscribe = source.subscribe((frame) => {
        // A client that cannot keep up misses frames rather than queueing them.
        if (res.writableLength > 2 * 1024 * 1024) return;
        const jpeg = frame.data[0]!;
        res.write(`--${BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
        res.write(jpeg);
        res.write("\r\n");
      });
      res.on("close", () => {
        this.mjpegClients--;
        unsubscribe();
      });
    });
    server.on("connection", (socket) => (this.sockets.add(socket), socket.on("close", () => this.sockets.delete(socket))));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as { port: number }).port));
    });
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

function plain(res: ServerResponse, status: number, text: string) {
  res.writeHead(status, { "Content-Type": "text/plain" });
  res.end(text);
}
