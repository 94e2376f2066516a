// What the fake ONVIF camera of the global setup has received, and waiting for a command to arrive.
import { expect } from "./fixtures";

export interface OnvifCommand {
  op: string;
  params: Record<string, string>;
}

export const onvifUrl = () => {
  const url = process.env.E2E_ONVIF_URL;
  if (!url) throw new Error("the global setup did not start the fake ONVIF camera");
  return url;
};

export async function received(): Promise<OnvifCommand[]> {
  return (await (await fetch(`${onvifUrl()}/__commands`)).json()) as OnvifCommand[];
}

/** Waits until the camera has received, after `from`, a command passing the test; returns the index after it. */
export async function waitForCommand(from: number, test: (command: OnvifCommand) => boolean): Promise<number> {
  let index = -1;
  await expect
    .poll(
      async () => {
        const commands = await received();
        index = commands.findIndex((command, i) => i >= from && test(command));
        return index >= 0;
      },
      { timeout: 10_000 },
    )
    .toBe(true);
  return index + 1;
}
