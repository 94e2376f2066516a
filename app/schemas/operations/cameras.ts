// The cameras operations of the catalogue (see ./define.ts).
import { z } from "zod";
import { cameraCreateSchema, cameraSchema, cameraUpdateSchema, cameraVideoSettingsSchema, ipCameraCreateSchema, ipCameraUpdateSchema } from "../cameras";
import { photoCaptureSchema, photoSchema } from "../photos";
import { defineOperation, image, noContent } from "./define";

export const cameras = {
  list: defineOperation({
    method: "get",
    path: "/api/cameras",
    summary: "The user's cameras",
    tag: "Cameras",
    access: "user",
    success: { status: 200, schema: z.array(cameraSchema) },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/cameras",
    summary: "Add a camera (webcam by deviceId, or a static photo by thumbnail)",
    tag: "Cameras",
    access: "user",
    body: cameraCreateSchema,
    success: { status: 201, schema: cameraSchema },
    errors: [400, 413, 422],
  }),
  createIp: defineOperation({
    method: "post",
    path: "/api/cameras/ip",
    summary:
      "Add an IP camera by stream URL, or by host + credentials (streams found through ONVIF, then the PTZOptics conventions); probes codec, login and PTZ; answers within 5 s",
    tag: "Cameras",
    access: "user",
    body: ipCameraCreateSchema,
    success: { status: 201, schema: cameraSchema },
    errors: [400, 413, 422],
  }),
  updateIp: defineOperation({
    method: "put",
    path: "/api/cameras/{id}/ip",
    summary: "Change an IP camera's address and/or credentials; probes it again and restarts its stream",
    tag: "Cameras",
    access: "user",
    body: ipCameraUpdateSchema,
    success: { status: 200, schema: cameraSchema },
    errors: [400, 404, 413, 422],
  }),
  get: defineOperation({
    method: "get",
    path: "/api/cameras/{id}",
    summary: "One camera",
    tag: "Cameras",
    access: "user",
    success: { status: 200, schema: cameraSchema },
    errors: [404],
  }),
  update: defineOperation({
    method: "put",
    path: "/api/cameras/{id}",
    summary: "Rename the camera or replace its thumbnail",
    tag: "Cameras",
    access: "user",
    body: cameraUpdateSchema,
    success: { status: 200, schema: cameraSchema },
    errors: [400, 404, 413, 422],
  }),
  saveVideo: defineOperation({
    method: "patch",
    path: "/api/cameras/{id}",
    summary: "Save video settings",
    tag: "Cameras",
    access: "user",
    body: cameraVideoSettingsSchema,
    success: { status: 200, schema: cameraSchema },
    errors: [400, 404],
  }),
  remove: defineOperation({
    method: "delete",
    path: "/api/cameras/{id}",
    summary: "Delete the camera (its photos, stories and sessions stay)",
    tag: "Cameras",
    access: "user",
    success: noContent,
    errors: [404],
  }),
  thumbnail: defineOperation({
    method: "get",
    path: "/api/cameras/{id}/thumbnail",
    summary: "The camera's 320 px thumbnail JPEG",
    tag: "Cameras",
    access: "user",
    success: image("Thumbnail"),
    errors: [404],
  }),
  image: defineOperation({
    method: "get",
    path: "/api/cameras/{id}/image",
    summary: "The full picture sent as the camera's thumbnail (a static photo's source)",
    tag: "Cameras",
    access: "user",
    success: image("Picture"),
    errors: [404],
  }),
  snapshot: defineOperation({
    method: "get",
    path: "/api/cameras/{id}/snapshot",
    summary: "A JPEG of an IP camera now, at its main stream's full resolution (captures and monitors)",
    tag: "Cameras",
    access: "user",
    success: { status: 200, schema: null, contentType: "image/jpeg", description: "The picture (Cache-Control: no-store)" },
    // 404: not the user's IP camera. 503: no picture could be had; the problem names the camera's offline reason.
    errors: [404, 503],
  }),
  capture: defineOperation({
    method: "post",
    path: "/api/cameras/{id}/capture",
    summary: "Save a photo of an IP camera taken by the server from its stream at full resolution (the picture never crosses the wire twice)",
    tag: "Cameras",
    access: "user",
    body: photoCaptureSchema,
    success: { status: 201, schema: photoSchema },
    // 404: not the user's IP camera (or the story). 409: the story is finished. 503: no picture could be had; the problem names the camera's offline reason.
    errors: [400, 404, 409, 413, 422, 503, 507],
  }),
  live: defineOperation({
    method: "get",
    path: "/api/cameras/{id}/live",
    summary: "Live view WebSocket (upgrade): a JSON status, then fragmented MP4 (init segment, then moof+mdat fragments from a keyframe)",
    tag: "Cameras",
    access: "user",
    success: {
      status: 101,
      schema: null,
      description:
        'Switching Protocols to a WebSocket (same origin, session cookie; Origin must be this site or the upgrade is refused with 403). Text messages: {"type":"status","status":"connecting"|"online"|"offline","reason","codec","mime","width","height","transcoded"}; whenever the stream (re)starts a status with its mime comes first, then a fresh init segment. Binary messages: the init segment (ftyp+moov), then whole fragments (moof+mdat); after a slow viewer is skipped the next fragment starts at a keyframe. Close codes: 4401 not signed in, 4404 not found / not yours / not an IP camera, 1012 the camera was changed, 1001 server shutting down.',
    },
    // 426: a plain GET (no WebSocket upgrade) on this path.
    errors: [403, 426],
  }),
};
