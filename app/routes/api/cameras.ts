// The cameras operations' handlers (app/schemas/operations/cameras.ts), one per catalogue entry.
import { db } from "#db/index";
import { createCamera, listCameras, deleteCamera, getCamera, updateCamera, updateVideoSettings, getCameraPicture } from "#server/cameras/service";
import { imageFrame } from "#server/http/frame-input";
import { captureFromCamera } from "#server/photos/capture";
import { handle } from "#server/http/operation";
import { createIpCamera, updateIpCamera } from "#server/cameras/ip-service";
import { retireCameraMonitors } from "#server/monitors/service";
import { imageResponse } from "#server/http/api";
import type { ResourceHandlers } from "#server/http/api";
import { loadCameraSource } from "#server/cameras/source";
import { SnapshotError } from "#server/cameras/stream/index";
import { ProblemError } from "#server/errors";
import { api } from "../../schemas/operations/index";

const resource = { resource: "Camera" };

// GET /api/cameras/:id/thumbnail (320 px JPEG) and /api/cameras/:id/image (the full picture of a static-photo
// camera): owner only, cached for a year (the URL carries the picture's version).
const picture = (variant: "thumbnail" | "image") =>
  handle(variant === "thumbnail" ? api.cameras.thumbnail : api.cameras.image, resource, async ({ request, user, params, services }) =>
    imageResponse(request, await getCameraPicture(db(), services.blobs, user.id, params.id, variant)),
  );

// GET /api/cameras/:id/snapshot: a JPEG of the user's IP camera now, at its main stream's full resolution.
const snapshot = handle(api.cameras.snapshot, resource, async ({ user, params, services }) => {
  const source = await loadCameraSource(db(), user.id, params.id);
  try {
    const picture = await services.streams.snapshot(source);
    return new Response(new Uint8Array(picture.jpeg), {
      headers: { "Content-Type": "image/jpeg", "Cache-Control": "no-store", "X-Image-Width": String(picture.width), "X-Image-Height": String(picture.height) },
    });
  } catch (error) {
    if (error instanceof SnapshotError) throw new ProblemError(503, `The camera gave no picture: ${error.reason}`);
    throw error;
  }
});

// GET /api/cameras/:id/live is the live view's WebSocket (server/http/camera-live-socket.ts answers the upgrade
// before any route runs). A plain GET reaching this route was not an upgrade: 426, after the sign-in and owner checks.
const live = handle(api.cameras.live, resource, async ({ user, params }) => {
  await loadCameraSource(db(), user.id, params.id); // 404 for a camera that is not the caller's IP camera, as the socket says 4404
  throw new ProblemError(426, "This address is a WebSocket: open it with new WebSocket(...)", { headers: { Upgrade: "websocket" } });
});

export const cameras = {
  // GET /api/cameras → the user's cameras; POST {name, model, status, deviceId or thumbnail} → 201 with the camera (and its id).
  list: handle(api.cameras.list, async ({ user }) => listCameras(db(), user.id)),
  create: handle(api.cameras.create, { bodyLimit: 8 * 1024 * 1024 }, async ({ user, body, services }) =>
    createCamera(db(), services.blobs, user.id, { ...body, thumbnail: body.thumbnail ? imageFrame(body.thumbnail) : null }),
  ),
  // POST /api/cameras/ip {name, streamUrl} | {name, host, username?, password?} → 201 with the IP camera (streams, codec and PTZ found by the server).
  createIp: handle(api.cameras.createIp, async ({ user, body }) => createIpCamera(db(), user.id, body)),
  // PUT /api/cameras/:id/ip {streamUrl} | {host, username?, password?} → the IP camera probed at its new address (its stream restarts).
  updateIp: handle(api.cameras.updateIp, resource, async ({ user, params, body, services }) => updateIpCamera(db(), services.streams, user.id, params.id, body)),
  // /api/cameras/:id — GET one, PUT {name} or {thumbnail}, PATCH {videoWidth, videoHeight, frameRate}, DELETE.
  get: handle(api.cameras.get, resource, async ({ user, params }) => getCamera(db(), user.id, params.id)),
  update: handle(api.cameras.update, { ...resource, bodyLimit: 8 * 1024 * 1024 }, async ({ user, params, body, services }) =>
    updateCamera(db(), services.blobs, user.id, params.id, { ...body, thumbnail: body.thumbnail ? imageFrame(body.thumbnail) : null }),
  ),
  saveVideo: handle(api.cameras.saveVideo, resource, async ({ user, params, body }) => updateVideoSettings(db(), user.id, params.id, body)),
  remove: handle(api.cameras.remove, resource, async ({ user, params, services }) => {
    await retireCameraMonitors(db(), user.id, params.id); // their stories and sessions finish; the rows go with the camera
    await deleteCamera(db(), services.streams, services.blobs, user.id, params.id);
  }),
  thumbnail: picture("thumbnail"),
  image: picture("image"),
  snapshot,
  // POST /api/cameras/:id/capture {captureMode, storyId, detection…} → 201 with the photo: the server takes the IP
  // camera's picture from the stream it already pulls, at full resolution, and saves it (no frame goes to the browser
  // and back).
  capture: handle(api.cameras.capture, resource, async ({ user, params, body, services }) => captureFromCamera(db(), services.streams, services.blobs, user.id, params.id, body)),
  live,
} satisfies ResourceHandlers<typeof api.cameras>;
