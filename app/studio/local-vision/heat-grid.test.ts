import { describe, expect, it } from "vitest";
import { cellOf, createHeatGrid, HEAT_CELLS, HEAT_COLS, HEAT_ROWS, hourOf, MAX_HEAT_TRACKS } from "./heat-grid";
import { createScene } from "./scene";
import { detection, FRAME_MS, trackAt, walk } from "./synthetic";

/** A whole UTC hour, so frames a few seconds in stay inside it. */
const HOUR = Date.UTC(2026, 10, 29, 9);
const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0);
const cells = (values: readonly number[]) => values.flatMap((v, i) => (v > 0 ? [i] : []));

describe("the heat grid", () => {
  it("maps the feet to a cell row by row from the top left, edges clamped into the grid", () => {
    expect(cellOf(0, 0)).toBe(0);
    expect(cellOf(0.999, 0)).toBe(HEAT_COLS - 1);
    expect(cellOf(0, 0.999)).toBe((HEAT_ROWS - 1) * HEAT_COLS);
    expect(cellOf(1, 1)).toBe(HEAT_CELLS - 1);
    expect(cellOf(-0.2, 1.3)).toBe((HEAT_ROWS - 1) * HEAT_COLS);
    expect(cellOf(0.5, 0.5)).toBe(9 * HEAT_COLS + 16);
  });

  it("counts one pass per cell a person walks through and the time they stood in each", () => {
    const grid = createHeatGrid();
    // Across the picture at mid-height, left to right, 10 frames a second for 4 s.
    const frames = 40;
    for (let i = 0; i < frames; i++) grid.update([trackAt(1, walk({ x: 0.05, y: 0.5 }, { x: 0.95, y: 0.5 }, frames, i))], HOUR + i * FRAME_MS);
    // Then stands still in the last cell for 3 s.
    for (let i = 1; i <= 30; i++) grid.update([trackAt(1, { x: 0.95, y: 0.5 })], HOUR + (frames - 1 + i) * FRAME_MS);
    const heat = grid.take()!;
    expect(heat).toMatchObject({ hour: HOUR, cols: HEAT_COLS, rows: HEAT_ROWS });
    expect(heat.walk).toHaveLength(HEAT_CELLS);
    const row = 9 * HEAT_COLS;
    // Every cell from x 0.05 to 0.95 on the row of y 0.5 is entered once, none twice, no other row touched.
    const from = cellOf(0.05, 0.5);
    const to = cellOf(0.95, 0.5);
    expect(cells(heat.walk)).toEqual(Array.from({ length: to - from + 1 }, (_, i) => from + i));
    expect(Math.max(...heat.walk)).toBe(1);
    expect(cells(heat.walk).every((cell) => cell >= row && cell < row + HEAT_COLS)).toBe(true);
    // Stay: the whole 6.9 s between the first and the last frame, 3 s of it (and the walk's last steps) in the last cell.
    expect(total(heat.stay)).toBeCloseTo((frames - 1 + 30) * 0.1, 5);
    expect(heat.stay[to]!).toBeGreaterThanOrEqual(3);
    expect(Math.max(...heat.stay)).toBe(heat.stay[to]);
  });

  it("counts only confirmed tracks seen in the frame, of the watched classes (people by default)", () => {
    const grid = createHeatGrid();
    const feet = { x: 0.5, y: 0.5 };
    grid.update([trackAt(1, feet, { confirmed: false }), trackAt(2, feet, { label: "car" }), trackAt(3, feet, { misses: 2 })], HOUR);
    expect(grid.take()).toBeNull();

    const cars = createHeatGrid({ labels: ["car"] });
    cars.update([trackAt(1, feet), trackAt(2, feet, { label: "car" })], HOUR);
    expect(total(cars.take()!.walk)).toBe(1);
    const all = createHeatGrid({ labels: [] });
    all.update([trackAt(1, feet), trackAt(2, feet, { label: "car" })], HOUR);
    expect(total(all.take()!.walk)).toBe(2);
  });

  it("keeps a track missed for a few frames as the same pass, and counts no stay over a long gap", () => {
    const grid = createHeatGrid();
    const feet = { x: 0.3, y: 0.3 };
    grid.update([trackAt(1, feet)], HOUR);
    grid.update([trackAt(1, feet, { misses: 1 })], HOUR + 100);
    grid.update([trackAt(1, feet)], HOUR + 200);
    // The tab was hidden for a minute: the person is still there, but nobody knows where they were meanwhile.
    grid.update([trackAt(1, feet)], HOUR + 60_200);
    const heat = grid.take()!;
    expect(total(heat.walk)).toBe(1);
    expect(total(heat.stay)).toBeCloseTo(0.2, 5);
  });

  it("counts a track that is gone and a new one in the same place as two passes", () => {
    const grid = createHeatGrid();
    const feet = { x: 0.3, y: 0.3 };
    grid.update([trackAt(1, feet)], HOUR);
    grid.update([], HOUR + 100);
    grid.update([trackAt(2, feet)], HOUR + 200);
    grid.update([trackAt(1, feet)], HOUR + 300); // an id seen again after it was dropped is a new pass too
    expect(total(grid.take()!.walk)).toBe(3);
  });

  it("hands back the finished hour when a frame starts the next, and starts the new hour empty", () => {
    const grid = createHeatGrid();
    const feet = { x: 0.5, y: 0.9 };
    expect(grid.update([trackAt(1, feet)], HOUR + 3_600_000 - 200)).toBeNull();
    expect(grid.update([trackAt(1, feet)], HOUR + 3_600_000 - 100)).toBeNull();
    const finished = grid.update([trackAt(1, feet)], HOUR + 3_600_000 + 100);
    expect(finished).toMatchObject({ hour: HOUR });
    expect(total(finished!.walk)).toBe(1);
    expect(total(finished!.stay)).toBeCloseTo(0.1, 5);
    const next = grid.take()!;
    expect(next.hour).toBe(HOUR + 3_600_000);
    expect(total(next.walk)).toBe(0); // the same person, still in the same cell: no new pass
    expect(total(next.stay)).toBeCloseTo(0.2, 5);
    expect(grid.take()).toBeNull();
    expect(hourOf(HOUR + 3_599_999)).toBe(HOUR);
  });

  it("follows at most MAX_HEAT_TRACKS tracks at once", () => {
    const grid = createHeatGrid();
    const tracks = Array.from({ length: MAX_HEAT_TRACKS + 50 }, (_, i) => trackAt(i + 1, { x: (i % 100) / 100, y: 0.5 }));
    grid.update(tracks, HOUR);
    expect(total(grid.take()!.walk)).toBe(MAX_HEAT_TRACKS);
  });

  it("works on the tracker's own tracks: a person walking down the picture fills a column", () => {
    const scene = createScene();
    const grid = createHeatGrid();
    const frames = 50;
    for (let i = 0; i < frames; i++) {
      const { tracks } = scene.step([detection(walk({ x: 0.52, y: 0.3 }, { x: 0.52, y: 0.95 }, frames, i))], HOUR + i * FRAME_MS);
      grid.update(tracks, HOUR + i * FRAME_MS);
    }
    const heat = grid.take()!;
    const column = cellOf(0.52, 0) % HEAT_COLS;
    expect(cells(heat.walk).every((cell) => cell % HEAT_COLS === column)).toBe(true);
    // Confirmed after 3 frames, so from about y 0.34 to 0.95: every row from there down entered once.
    expect(total(heat.walk)).toBeGreaterThanOrEqual(cellOf(0.52, 0.95) / HEAT_COLS - cellOf(0.52, 0.36) / HEAT_COLS);
    expect(Math.max(...heat.walk)).toBe(1);
  });
});
