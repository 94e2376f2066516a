// The cheapest correct relay, as a yardstick for the app's detect route (bench/vision.ts): a bare node:http
// server that reads the JSON body, JSON.parses it, sends the frame on to the provider as Moondream's JSON over a
// keep-alive agent, parses the answer and replies. No auth, no database, no framework, no validation beyond
// JSON. Whatever it costs, any relay costs; what the app costs above it is the app's own overhead.
// Run alone: `npx tsx bench/bare-relay.ts <provider url>`; prints {"url": ...} when listening.
import { Agent, createServer, request, type IncomingMessage, type ServerResponse } from "node:http";

const provider = new URL(process.argv[2]!);
const agent = new Agent({ keepAlive: true });

function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const input = JSON.parse((await readBody(req)).toString("utf8")) as { imageData: string; object: string; maxObjects: number };
    const body = JSON.stringify({ image_url: input.imageData, object: input.object, settings: { max_objects: input.maxObjects } });
    const answer = await new Promise<Buffer>((resolve, reject) => {
      const out = request(
        new URL("detect", `${provider.href.replace(/\/?$/, "/")}`),
        { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-moondream-auth": "relay-key" } },
        (reply) => void readBody(reply).then(resolve, reject),
      );
      out.on("error", reject);
      out.end(body);
    });
    const { objects } = JSON.parse(answer.toString("utf8")) as { objects: unknown[] };
    const reply = JSON.stringify({ boxes: objects });
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(reply) }).end(reply);
  } catch (error) {
    res.writeHead(502, { "content-type": "text/plain" }).end(String(error));
  }
}

const server = createServer((req, res) => void relay(req, res));
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
process.once("SIGTERM", () => process.exit(0));
