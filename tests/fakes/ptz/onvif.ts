// A fake ONVIF PTZ camera: SOAP 1.2 over HTTP, every call but GetSystemDateAndTime checked for a WS-Security
// UsernameToken digest (Base64(SHA-1(nonce + created + password))), answering device, media, PTZ and imaging
// operations like a Profile S camera, ter:NotAuthorized for bad credentials, ActionNotSupported for the rest.
// GET /__commands lists what it received (for a fake run from a CLI, read in another process); `silent` stops all answers;
// `holdGets` keeps every other GET (a PTZOptics HTTP-CGI probe on the same port) open, unanswered, until `release()`.
// With `media` (the fake IP camera passes it) it also answers GetServices' media side, GetVideoSources,
// GetStreamUri and GetSnapshotUri for one profile per stream, the way a camera is discovered by host + credentials.
import { createHash } from "node:crypto";
import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { SimulatedHead } from "./head";
import { Recorder } from "./recorder";

export interface OnvifCommand {
  op: string;
  /** The operation's body (inside the SOAP Body), whitespace as sent. */
  body: string;
  /** Parsed pieces the tests compare: velocity, preset token, settings. */
  params: Record<string, string>;
}

export interface FakeOnvif {
  port: number;
  url: string;
  username: string;
  password: string;
  recorder: Recorder<OnvifCommand>;
  silent: boolean;
  /** Plain GETs (not SOAP) are held open, unanswered, like a port that accepts and then says nothing. */
  holdGets: boolean;
  /** GETs held open now. */
  held(): number;
  /** Stops holding and answers the held GETs 404, as a camera without that CGI would. */
  release(): void;
  /**
   * Cuts the next request on each connection open now, unanswered: what a client meets when it reuses a kept-alive
   * socket the camera has just dropped (a reboot, the camera's keep-alive timeout firing as the request goes out).
   */
  dropKeptConnections(): void;
  /** Operations answered ActionNotSupported (e.g. "Move" for a camera without imaging focus). */
  unsupported: Set<string>;
  /** The camera's streams when it has video (the fake IP camera), else a PTZ-only camera with one profile. */
  media?: OnvifMediaProfile[];
  /** host:port its capabilities name as the service address (a camera lying about where its services are). */
  serviceHost?: string;
  close(): Promise<void>;
}

export interface OnvifMediaProfile {
  token: string;
  name: string;
  width: number;
  height: number;
  fps: number;
  streamUri: string;
  snapshotUri: string;
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const mediaUri = (op: string, uri: string) =>
  `<trt:${op}Response><trt:MediaUri><tt:Uri>${xmlText(uri)}</tt:Uri><tt:InvalidAfterConnect>false</tt:InvalidAfterConnect><tt:InvalidAfterReboot>false</tt:InvalidAfterReboot><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri></trt:${op}Response>`;

const mediaProfile = (profile: OnvifMediaProfile, ptz: boolean) =>
  `<trt:Profiles token="${profile.token}" fixed="true"><tt:Name>${profile.name}</tt:Name><tt:VideoSourceConfiguration token="VideoSourceConfig_1"><tt:Name>VideoSourceConfig</tt:Name><tt:UseCount>2</tt:UseCount><tt:SourceToken>VideoSource_1</tt:SourceToken><tt:Bounds x="0" y="0" width="${profile.width}" height="${profile.height}"/></tt:VideoSourceConfiguration><tt:VideoEncoderConfiguration token="VideoEncoder_${profile.token}"><tt:Name>${profile.name}</tt:Name><tt:UseCount>1</tt:UseCount><tt:Encoding>H264</tt:Encoding><tt:Resolution><tt:Width>${profile.width}</tt:Width><tt:Height>${profile.height}</tt:Height></tt:Resolution><tt:Quality>5</tt:Quality><tt:RateControl><tt:FrameRateLimit>${profile.fps}</tt:FrameRateLimit><tt:EncodingInterval>1</tt:EncodingInterval><tt:BitrateLimit>4096</tt:BitrateLimit></tt:RateControl><tt:H264><tt:GovLength>${profile.fps}</tt:GovLength><tt:H264Profile>Main</tt:H264Profile></tt:H264><tt:SessionTimeout>PT60S</tt:SessionTimeout></tt:VideoEncoderConfiguration>${ptz ? `<tt:PTZConfiguration token="PTZConfig_1"><tt:Name>PTZ</tt:Name><tt:NodeToken>PTZNode_1</tt:NodeToken></tt:PTZConfiguration>` : ""}</trt:Profiles>`;

const service = (namespace: string, xaddr: string) =>
  `<tds:Service><tds:Namespace>${namespace}</tds:Namespace><tds:XAddr>${xaddr}</tds:XAddr><tds:Version><tt:Major>2</tt:Major><tt:Minor>6</tt:Minor></tds:Version></tds:Service>`;

const ENVELOPE = (body: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><SOAP-ENV:Envelope xmlns:SOAP-ENV="http://www.w3.org/2003/05/soap-envelope" xmlns:tt="http://www.onvif.org/ver10/schema" xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:tptz="http://www.onvif.org/ver20/ptz/wsdl" xmlns:timg="http://www.onvif.org/ver20/imaging/wsdl" xmlns:ter="http://www.onvif.org/ver10/error"><SOAP-ENV:Body>${body}</SOAP-ENV:Body></SOAP-ENV:Envelope>`;

const FAULT = (code: string, subcode: string, reason: string) =>
  ENVELOPE(
    `<SOAP-ENV:Fault><SOAP-ENV:Code><SOAP-ENV:Value>SOAP-ENV:${code}</SOAP-ENV:Value><SOAP-ENV:Subcode><SOAP-ENV:Value>${subcode}</SOAP-ENV:Value></SOAP-ENV:Subcode></SOAP-ENV:Code><SOAP-ENV:Reason><SOAP-ENV:Text xml:lang="en">${reason}</SOAP-ENV:Text></SOAP-ENV:Reason></SOAP-ENV:Fault>`,
  );

/** What a PTZ operation does to the simulated head: velocities are −1…1 of the 24-unit scale the drivers use. */
function steer(head: SimulatedHead, op: string, params: Record<string, string>) {
  if (op === "ContinuousMove") {
    if (params["PanTilt.x"] !== undefined) head.drive(Number(params["PanTilt.x"]) * 24, Number(params["PanTilt.y"] ?? 0) * 24);
    if (params["Zoom.x"] !== undefined) head.zoomAt(Number(params["Zoom.x"]));
  } else if (op === "Stop") {
    if (params.PanTilt === "true") head.drive(0, 0);
    if (params.Zoom === "true") head.zoomAt(0);
  } else if (op === "GotoHomePosition") head.home();
  else if (op === "SetPreset") head.savePreset(Number(params.PresetToken));
  else if (op === "GotoPreset") head.recallPreset(Number(params.PresetToken));
}

/** `head`: a simulated head the PTZ operations steer (the closed-loop follow test). */
export async function startFakeOnvif(options: { username?: string; password?: string; port?: number; media?: OnvifMediaProfile[]; head?: SimulatedHead } = {}): Promise<FakeOnvif> {
  const fake: FakeOnvif = {
    port: 0,
    url: "",
    username: options.username ?? "admin",
    password: options.password ?? "admin",
    recorder: new Recorder<OnvifCommand>(),
    silent: false,
    holdGets: false,
    held: () => heldGets.size,
    release: () => {
      fake.holdGets = false;
      for (const res of heldGets) res.writeHead(404).end();
      heldGets.clear();
    },
    dropKeptConnections: () => {
      for (const socket of openSockets) staleSockets.add(socket);
    },
    unsupported: new Set(),
    media: options.media,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const presets = new Map<string, string>();
  const heldGets = new Set<ServerResponse>();
  const openSockets = new Set<Socket>();
  const staleSockets = new WeakSet<Socket>();

  const authorized = (xml: string) => {
    const pick = (tag: string) => new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*>([^<]*)</(?:\\w+:)?${tag}>`).exec(xml)?.[1];
    const [username, digest, nonce, created] = [pick("Username"), pick("Password"), pick("Nonce"), pick("Created")];
    if (!username || !digest || !nonce || !created || username !== fake.username) return false;
    const expected = createHash("sha1")
      .update(Buffer.concat([Buffer.from(nonce, "base64"), Buffer.from(created), Buffer.from(fake.password)]))
      .digest("base64");
    return expected === digest;
  };

  const answer = (op: string, body: string, host: string): string | undefined => {
    const base = `http://${fake.serviceHost ?? host}/onvif`;
    const value = (tag: string) => new RegExp(`<(?:\\w+:)?${tag}\\b[^>]*>([^<]*)<`).exec(body)?.[1] ?? "";
    switch (op) {
      case "GetCapabilities":
        return `<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Device><tt:XAddr>${base}/device_service</tt:XAddr></tt:Device><tt:Imaging><tt:XAddr>${base}/imaging</tt:XAddr></tt:Imaging><tt:Media><tt:XAddr>${base}/media</tt:XAddr></tt:Media><tt:PTZ><tt:XAddr>${base}/ptz</tt:XAddr></tt:PTZ></tds:Capabilities></tds:GetCapabilitiesResponse>`;
      case "GetDeviceInformation":
        return `<tds:GetDeviceInformationResponse><tds:Manufacturer>PTZOptics</tds:Manufacturer><tds:Model>PT20X-NDI</tds:Model><tds:FirmwareVersion>9.1.3</tds:FirmwareVersion><tds:SerialNumber>FAKE0001</tds:SerialNumber><tds:HardwareId>1.0</tds:HardwareId></tds:GetDeviceInformationResponse>`;
      case "GetServices":
        return `<tds:GetServicesResponse>${service("http://www.onvif.org/ver10/device/wsdl", `${base}/device_service`)}${service("http://www.onvif.org/ver10/media/wsdl", `${base}/media`)}${service("http://www.onvif.org/ver20/ptz/wsdl", `${base}/ptz`)}${service("http://www.onvif.org/ver20/imaging/wsdl", `${base}/imaging`)}</tds:GetServicesResponse>`;
      case "GetProfiles":
        if (fake.media) return `<trt:GetProfilesResponse>${fake.media.map((profile, i) => mediaProfile(profile, i === 0)).join("")}</trt:GetProfilesResponse>`;
        return `<trt:GetProfilesResponse><trt:Profiles token="Profile_1" fixed="true"><tt:Name>mainStream</tt:Name><tt:VideoSourceConfiguration token="VideoSourceConfig_1"><tt:Name>VideoSourceConfig</tt:Name><tt:UseCount>2</tt:UseCount><tt:SourceToken>VideoSource_1</tt:SourceToken><tt:Bounds x="0" y="0" width="1920" height="1080"/></tt:VideoSourceConfiguration><tt:PTZConfiguration token="PTZConfig_1"><tt:Name>PTZ</tt:Name><tt:NodeToken>PTZNode_1</tt:NodeToken></tt:PTZConfiguration></trt:Profiles></trt:GetProfilesResponse>`;
      case "GetVideoSources": {
        const main = fake.media?.[0];
        if (!main) return undefined;
        return `<trt:GetVideoSourcesResponse><trt:VideoSources token="VideoSource_1"><tt:Framerate>${main.fps}</tt:Framerate><tt:Resolution><tt:Width>${main.width}</tt:Width><tt:Height>${main.height}</tt:Height></tt:Resolution></trt:VideoSources></trt:GetVideoSourcesResponse>`;
      }
      case "GetStreamUri":
      case "GetSnapshotUri": {
        const profile = fake.media?.find((p) => p.token === value("ProfileToken")) ?? fake.media?.[0];
        if (!profile) return undefined;
        return mediaUri(op, op === "GetStreamUri" ? profile.streamUri : profile.snapshotUri);
      }
      case "ContinuousMove":
      case "Stop":
      case "GotoHomePosition":
      case "RemovePreset":
      case "GotoPreset":
        if (op === "RemovePreset") presets.delete(value("PresetToken"));
        return `<tptz:${op}Response/>`;
      case "SetPreset": {
        const token = value("PresetToken") || String(presets.size + 1);
        presets.set(token, value("PresetName"));
        return `<tptz:SetPresetResponse><tptz:PresetToken>${token}</tptz:PresetToken></tptz:SetPresetResponse>`;
      }
      case "Move":
      case "SetImagingSettings":
        return `<timg:${op}Response/>`;
      default:
        return undefined;
    }
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (staleSockets.has(req.socket)) return void req.socket.destroy();
    if (req.method === "GET" && req.url === "/__commands") {
      res.writeHead(200, { "Content-Type": "application/json" });
      return res.end(JSON.stringify(fake.recorder.commands));
    }
    if (req.method === "GET" && fake.holdGets) {
      heldGets.add(res);
      res.on("close", () => heldGets.delete(res));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (fake.silent) return;
      const xml = Buffer.concat(chunks).toString("utf8");
      const match = /<(?:\w+:)?Body\b[^>]*>\s*<(?:\w+:)?(\w+)/.exec(xml);
      const send = (status: number, body: string) => {
        res.writeHead(status, { "Content-Type": "application/soap+xml; charset=utf-8" });
        res.end(body);
      };
      if (!match) return send(400, FAULT("Sender", "ter:WellFormed", "Not a SOAP request"));
      const op = match[1]!;
      if (op === "GetSystemDateAndTime") {
        const now = new Date();
        return send(
          200,
          ENVELOPE(
            `<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>NTP</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings><tt:UTCDateTime><tt:Time><tt:Hour>${now.getUTCHours()}</tt:Hour><tt:Minute>${now.getUTCMinutes()}</tt:Minute><tt:Second>${now.getUTCSeconds()}</tt:Second></tt:Time><tt:Date><tt:Year>${now.getUTCFullYear()}</tt:Year><tt:Month>${now.getUTCMonth() + 1}</tt:Month><tt:Day>${now.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime></tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>`,
          ),
        );
      }
      if (!authorized(xml)) return send(400, FAULT("Sender", "ter:NotAuthorized", "Sender not Authorized"));
      const body = /<(?:\w+:)?Body\b[^>]*>([\s\S]*)<\/(?:\w+:)?Body>/.exec(xml)?.[1] ?? "";
      const params: Record<string, string> = {};
      for (const m of body.matchAll(/<(\w+)\s+x="([^"]*)"(?:\s+y="([^"]*)")?/g)) {
        params[`${m[1]}.x`] = m[2]!;
        if (m[3] !== undefined) params[`${m[1]}.y`] = m[3];
      }
      for (const m of body.matchAll(/<(?:\w+:)?(\w+)(?:\s[^>]*)?>([^<]+)<\/(?:\w+:)?\1>/g)) params[m[1]!] = m[2]!;
      fake.recorder.record({ op, body, params });
      const reply = fake.unsupported.has(op) ? undefined : answer(op, body, req.headers.host ?? `127.0.0.1:${fake.port}`);
      if (reply === undefined) return send(400, FAULT("Receiver", "ter:ActionNotSupported", `The requested action ${op} is not supported`));
      if (options.head) steer(options.head, op, params);
      send(200, ENVELOPE(reply));
    });
  };
  const server: Server = createServer(handle);
  server.on("connection", (socket: Socket) => {
    openSockets.add(socket);
    socket.on("close", () => openSockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.url = `http://127.0.0.1:${fake.port}`;
  return fake;
}
