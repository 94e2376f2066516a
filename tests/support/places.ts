// A signed-up user with a camera that has one line and one zone: where local-vision events (and so Insights' counts and
// the timeline's events) happen in the integration tests.
import { signUpUser, type TestUser } from "./client";
import { jpegDataUrl } from "./images";

/** A request as the studio sends it (JSON, with the Origin its CSRF check wants). */
export const send = (user: TestUser, method: string, path: string, json?: unknown) => user.client.request(method, path, { json, headers: { origin: user.client.baseUrl } });

export interface Place extends TestUser {
  cameraId: string;
  lineId: string;
  zoneId: string;
}

/** A new user, their camera, a vertical line across its middle and a triangular zone, under the names given. */
export async function userWithPlace(names: { camera: string; line: string; zone: string }): Promise<Place> {
  const user = await signUpUser();
  const camera = await (await send(user, "POST", "/api/cameras", { name: names.camera, thumbnail: await jpegDataUrl(64, 48) })).json();
  const line = await (await send(user, "POST", `/api/cameras/${camera.id}/lines`, { name: names.line, a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 } })).json();
  const zone = await (
    await send(user, "POST", `/api/cameras/${camera.id}/zones`, {
      name: names.zone,
      polygon: [
        { x: 0.1, y: 0.1 },
        { x: 0.9, y: 0.1 },
        { x: 0.5, y: 0.9 },
      ],
    })
  ).json();
  return { ...user, cameraId: camera.id, lineId: line.id, zoneId: zone.id };
}
