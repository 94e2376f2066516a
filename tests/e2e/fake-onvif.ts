// Each PTZ test gets a fake ONVIF camera of its own, started in its worker on loopback (admin/admin; the app may
// reach loopback cameras only in tests): what the camera received is that test's alone. With one camera for the
// whole run, a test on the other worker (the joystick's left move, a watchdog's stop) could pass for this one's.
import { startFakeOnvif, type FakeOnvif, type OnvifCommand } from "../fakes/ptz/onvif";
import { test as base } from "./fixtures";

export const test = base.extend<{ onvif: FakeOnvif }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
  onvif: async ({}, provide) => {
    const camera = await startFakeOnvif();
    await provide(camera);
    await camera.close();
  },
});

/** Waits until the camera has received, after `from`, a command passing the test; returns the index after it. */
export async function waitForCommand(camera: FakeOnvif, from: number, test: (command: OnvifCommand) => boolean): Promise<number> {
  const entry = await camera.recorder.next(test, from);
  return camera.recorder.received.indexOf(entry) + 1;
}
