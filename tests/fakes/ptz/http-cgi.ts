// A fake PTZOptics camera over HTTP-CGI: Digest auth (MD5, qop=auth, with nonce counts checked), positional
// ptzctrl.cgi / param.cgi commands answered {"Response":{"Result":"Success"}}, 404 for unknown CGI commands.
// `silent` makes it accept connections and never answer; `legacyImagePath` answers post_image_value only on param.cgi (G2).
import { createHash, randomBytes } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { SimulatedHead } from "./head";
import { Recorder } from "./recorder";

export interface FakeHttpCgi {
  port: number;
  username: string;
  password: string;
  /** Authenticated request paths with their query, e.g. "/cgi-bin/ptzctrl.cgi?ptzcmd&up&10&10". */
  recorder: Recorder<string>;
  /** How many requests were answered 401 (challenges and bad credentials). */
  challenges: number;
  silent: boolean;
  legacyImagePath: boolean;
  close(): Promise<void>;
}

const PTZ_COMMANDS =
  /^ptzcmd&(up|down|left|right|leftup|rightup|leftdown|rightdown)&\d+&\d+$|^ptzcmd&ptzstop&\d+&\d+$|^ptzcmd&(zoomin|zoomout|focusin|focusout)&[0-7]$|^ptzcmd&(zoomstop|focusstop)&0$|^ptzcmd&home$|^ptzcmd&(poscall|posset)&\d+$/;

/** What an accepted ptzcmd does to the simulated head. */
function steer(head: SimulatedHead, query: string) {
  const [, command = "", a = "0", b = "0"] = query.split("&");
  const [first, second] = [Number(a), Number(b)];
  if (/^(up|down|left|right|leftup|rightup|leftdown|rightdown)$/.test(command)) {
    return head.drive(command.startsWith("left") ? -first : command.startsWith("right") ? first : 0, command.endsWith("up") ? second : command.endsWith("down") ? -second : 0);
  }
  if (command === "ptzstop") return head.drive(0, 0);
  if (command === "zoomin" || command === "zoomout") return head.zoomAt(((first + 1) / 8) * (command === "zoomin" ? 1 : -1));
  if (command === "zoomstop") return head.zoomAt(0);
  if (command === "home") return head.home();
  if (command === "posset") return head.savePreset(first);
  if (command === "poscall") return head.recallPreset(first);
}

/** `head`: a simulated head the ptzctrl commands steer (the closed-loop follow test). */
export async function startFakeHttpCgi(options: { username?: string; password?: string; head?: SimulatedHead } = {}): Promise<FakeHttpCgi> {
  const realm = "PTZOptics";
  const nonce = randomBytes(12).toString("hex");
  const seen = new Set<string>();
  const md5 = (text: string) => createHash("md5").update(text).digest("hex");
  const fake: FakeHttpCgi = {
    port: 0,
    username: options.username ?? "admin",
    password: options.password ?? "admin",
    recorder: new Recorder<string>(),
    challenges: 0,
    silent: false,
    legacyImagePath: false,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };

  const authorized = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization ?? "";
    if (!header.startsWith("Digest ")) return false;
    const p: Record<string, string> = {};
    for (const m of header.slice(7).matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) p[m[1]!] = m[2] ?? m[3] ?? "";
    if (p.username !== fake.username || p.realm !== realm || p.nonce !== nonce || p.uri !== req.url || p.qop !== "auth") return false;
    const use = `${p.cnonce}:${p.nc}`;
    if (seen.has(use)) return false; // a replayed nonce count
    const expected = md5(`${md5(`${fake.username}:${realm}:${fake.password}`)}:${nonce}:${p.nc}:${p.cnonce}:auth:${md5(`GET:${req.url}`)}`);
    if (p.response !== expected) return false;
    seen.add(use);
    return true;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (fake.silent) return; // the connection stays open and unanswered
    if (!authorized(req)) {
      fake.challenges += 1;
      res.writeHead(401, { "WWW-Authenticate": `Digest realm="${realm}", qop="auth", nonce="${nonce}", algorithm=MD5`, "Content-Type": "text/html" });
      return res.end("<html><body>401 Unauthorized</body></html>");
    }
    const url = req.url ?? "";
    fake.recorder.record(url);
    const [path, query = ""] = url.split("?");
    const ok = () => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ Response: { Result: "Success" } }));
    };
    if (path === "/cgi-bin/ptzctrl.cgi" && PTZ_COMMANDS.test(query)) {
      if (options.head) steer(options.head, query);
      return ok();
    }
    if (path === "/cgi-bin/ptzctrl.cgi" && query.startsWith("post_image_value&") && !fake.legacyImagePath) return ok();
    if (path === "/cgi-bin/param.cgi" && (query.startsWith("post_image_value&") || query === "set_focus&one_shot_focus")) return ok();
    if (path === "/cgi-bin/param.cgi" && query === "get_device_conf") {
      res.writeHead(200, { "Content-Type": "text/plain" });
      return res.end('devname="PTZOptics Move 4K"\ndevtype="ptz"\nversioninfo="SOC v9.0"\n');
    }
    res.writeHead(404, { "Content-Type": "text/html" });
    res.end("<html><body>404 Not Found</body></html>");
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  return fake;
}
