import { describe, expect, it } from "vitest";
import { lanAllowed, parseNetworks } from "../net/address-policy";
import { parsePorts } from "../net/ports";
import { CameraAddressError, splitHostPort, vetUrlForm } from "./camera-url";
import { pullTarget } from "./stream/pull-target";
import { conventionUrls } from "./discovery";
import { httpCodec } from "./http-probe";
import { sdpVideoCodec } from "./rtsp-probe";

describe("vetUrlForm", () => {
  it("lifts the credentials out of the URL and fills the scheme's default port", () => {
    const vetted = vetUrlForm("rtsp://admin:p%40ss%3Aword@127.0.0.20/Streaming/Channels/101?transport=tcp&x=1");
    expect(vetted.credentials).toEqual({ username: "admin", password: "p@ss:word" });
    expect(vetted.url.href).toBe("rtsp://127.0.0.20/Streaming/Channels/101?transport=tcp&x=1");
    expect(vetted.port).toBe(554);
    expect(vetUrlForm("rtsps://[fd00::5]/1")).toMatchObject({ hostname: "fd00::5", port: 322, credentials: null });
  });

  it.each(["file:///etc/passwd", "concat:a|b", "rtsp://h/1;id", "rtsp://h/1\nx", "rtsp://a@b@c/1", "http://h/$(id)", "ftp://h/x"])("refuses %s", (input) => {
    expect(() => vetUrlForm(input)).toThrow(CameraAddressError);
  });
});

describe("pullTarget", () => {
  const policy = { addresses: lanAllowed(parseNetworks("127.0.0.0/8")), ports: parsePorts("554,8554") };
  it("puts the checked address into the stored URL, never a login", async () => {
    const target = await pullTarget("rtsp://ad%20min:p%40ss@localhost:8554/1?x=1", policy);
    expect(target).toEqual({ url: "rtsp://127.0.0.1:8554/1?x=1", host: "localhost", address: "127.0.0.1", port: 8554 });
  });
  it("refuses a stored URL the policy no longer allows", async () => {
    await expect(pullTarget("rtsp://127.0.0.1:22/1", policy)).rejects.toThrow(/Port 22/);
    await expect(pullTarget("rtsp://169.254.169.254:554/1", policy)).rejects.toThrow(CameraAddressError);
    await expect(pullTarget("rtsp://127.0.0.1:8554/1;reboot", policy)).rejects.toThrow(CameraAddressError);
  });
});

describe("discovery helpers", () => {
  it("splits host:port, bracketed IPv6 included", () => {
    expect(splitHostPort("cam.local")).toEqual({ hostname: "cam.local", port: null });
    expect(splitHostPort("127.0.0.9:8000")).toEqual({ hostname: "127.0.0.9", port: 8000 });
    expect(splitHostPort("[fd00::9]:2020")).toEqual({ hostname: "fd00::9", port: 2020 });
  });

  it("builds the PTZOptics and /streamN conventions on 554 and on the typed port", () => {
    expect(conventionUrls("127.0.0.9", null)).toEqual([
      { port: 554, main: "rtsp://127.0.0.9:554/1", sub: "rtsp://127.0.0.9:554/2" },
      { port: 554, main: "rtsp://127.0.0.9:554/stream1", sub: "rtsp://127.0.0.9:554/stream2" },
    ]);
    expect(conventionUrls("fd00::9", 8554).map((c) => c.main)).toEqual([
      "rtsp://[fd00::9]:8554/1",
      "rtsp://[fd00::9]:8554/stream1",
      "rtsp://[fd00::9]:554/1",
      "rtsp://[fd00::9]:554/stream1",
    ]);
  });

  it("reads the video codec from an SDP's rtpmap, ignoring audio", () => {
    const sdp = (video: string) => `v=0\r\nm=audio 0 RTP/AVP 97\r\na=rtpmap:97 MPEG4-GENERIC/48000/2\r\n${video}`;
    expect(sdpVideoCodec(sdp("m=video 0 RTP/AVP 96\r\na=rtpmap:96 H264/90000\r\n"))).toBe("h264");
    expect(sdpVideoCodec(sdp("m=video 0 RTP/AVP 98\r\na=rtpmap:98 H265/90000\r\n"))).toBe("hevc");
    expect(sdpVideoCodec(sdp("m=video 0 RTP/AVP 26\r\n"))).toBe("mjpeg");
    expect(sdpVideoCodec("v=0\r\nm=audio 0 RTP/AVP 0\r\n")).toBeNull();
  });

  it("names what an HTTP camera URL serves by its Content-Type", () => {
    expect(httpCodec("multipart/x-mixed-replace; boundary=frame")).toBe("mjpeg");
    expect(httpCodec("image/jpeg")).toBe("jpeg");
    expect(httpCodec("text/html; charset=utf-8")).toBeNull();
  });
});
