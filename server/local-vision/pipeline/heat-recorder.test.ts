// The pipeline's heat recorder: its grid written about once a minute in the frames' time, at each new hour and on
// close; a failed write kept and tried again at the next flush.
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { HeatSnapshot } from "#app/studio/local-vision/heat-grid";
import { trackAt } from "#app/studio/local-vision/synthetic";
import { createHeatRecorder, HEAT_FLUSH_MS } from "./heat-recorder";

const log = pino({ level: "silent" });
const HOUR = Date.UTC(2026, 10, 29, 10);
const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0);

function recorder(fail: () => boolean = () => false) {
  const saved: HeatSnapshot[] = [];
  const heat = createHeatRecorder(
    ["person"],
    async (grid) => {
      await Promise.resolve();
      if (fail()) throw new Error("the database is restarting");
      saved.push(grid);
    },
    log,
  );
  /** One person standing still, 5 frames a second, from `from` to `to` ms after the hour. */
  const stand = (from: number, to: number) => {
    for (let at = from; at <= to; at += 200) heat.onFrame([trackAt(1, { x: 0.5, y: 0.5 }), trackAt(2, { x: 0.1, y: 0.9 }, { label: "car" })], HOUR + at);
  };
  return { heat, saved, stand };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("the pipeline's heat recorder", () => {
  it("writes the grid once a minute of frames, only the watched classes, and what is left on close", async () => {
    const r = recorder();
    r.stand(0, HEAT_FLUSH_MS - 200);
    await settle();
    expect(r.saved).toHaveLength(0);
    r.stand(HEAT_FLUSH_MS, HEAT_FLUSH_MS + 10_000);
    await settle();
    expect(r.saved).toHaveLength(1);
    expect(r.saved[0]).toMatchObject({ hour: HOUR });
    expect(total(r.saved[0]!.walk)).toBe(1); // the person; the car is not watched
    expect(total(r.saved[0]!.stay)).toBeCloseTo(60, 5);
    await r.heat.close();
    expect(r.saved).toHaveLength(2);
    expect(total(r.saved[1]!.stay)).toBeCloseTo(10, 5);
    await r.heat.close(); // nothing more to write
    expect(r.saved).toHaveLength(2);
  });

  it("writes the finished hour when a frame starts the next", async () => {
    const r = recorder();
    r.stand(3_600_000 - 1000, 3_600_000 + 200);
    await settle();
    expect(r.saved.map((grid) => grid.hour)).toEqual([HOUR, HOUR + 3_600_000]);
  });

  it("keeps a grid that could not be written and writes it with the next", async () => {
    let failing = true;
    const r = recorder(() => failing);
    r.stand(0, HEAT_FLUSH_MS);
    await settle();
    expect(r.saved).toHaveLength(0);
    failing = false;
    r.stand(HEAT_FLUSH_MS + 200, 2 * HEAT_FLUSH_MS);
    await settle();
    await r.heat.close();
    expect(r.saved.map((grid) => Math.round(total(grid.stay)))).toEqual([60, 60]);
  });
});
