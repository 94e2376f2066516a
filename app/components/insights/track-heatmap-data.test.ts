import { describe, expect, it } from "vitest";
import type { Heatmap } from "#app/schemas/local-vision";
import { chartOption, formatValue, heatCells, isEmpty, topCells } from "./track-heatmap-data";

function map(cells: Record<number, [number, number]>): Heatmap {
  const walk = new Array<number>(32 * 18).fill(0);
  const stay = new Array<number>(32 * 18).fill(0);
  for (const [cell, [w, s]] of Object.entries(cells)) {
    walk[Number(cell)] = w;
    stay[Number(cell)] = s;
  }
  return { cols: 32, rows: 18, walk, stay, from: "2026-11-22T00:00:00.000Z", to: "2026-11-29T00:00:00.000Z", hours: 3 };
}

describe("the track heatmap's data", () => {
  const heat = map({ 0: [2, 1], 33: [9, 120], 575: [9, 4000] });

  it("names cells by row and column from the top left, 1-based", () => {
    expect(heatCells(heat, "walk")).toEqual([
      { row: 1, column: 1, value: 2 },
      { row: 2, column: 2, value: 9 },
      { row: 18, column: 32, value: 9 },
    ]);
  });

  it("lists the busiest cells first, ties from the top", () => {
    expect(topCells(heat, "walk", 2).map((c) => [c.row, c.column])).toEqual([
      [2, 2],
      [18, 32],
    ]);
    expect(topCells(heat, "stay").map((c) => c.value)).toEqual([4000, 120, 1]);
  });

  it("says when there is nothing to show", () => {
    expect(isEmpty(map({}))).toBe(true);
    expect(isEmpty(map({ 7: [0, 0.5] }))).toBe(false);
  });

  it("puts values in words", () => {
    expect(formatValue("walk", 1, "en")).toBe("1 pass");
    expect(formatValue("walk", 1234, "en")).toBe("1,234 passes");
    expect(formatValue("stay", 12.25, "en")).toBe("12.3 s");
    expect(formatValue("stay", 600, "en")).toBe("10 min");
    expect(formatValue("stay", 7500, "en")).toBe("2 h 5 min");
    expect(formatValue("stay", 7200, "en")).toBe("2 h");
  });

  it("draws each cell with something in it where it is on the picture, scaled to the busiest", () => {
    const option = chartOption(heat, "stay", "Lobby", "en");
    expect(option.series[0]!.data).toEqual([
      [0, 0, 1],
      [1, 1, 120],
      [31, 17, 4000],
    ]);
    expect(option.yAxis.inverse).toBe(true); // row 1 at the top, as in the picture
    expect(option.grid).toEqual({ left: 0, right: 0, top: 0, bottom: 0 });
    expect(option.visualMap.max).toBe(4000);
    expect(option.aria).toEqual({ enabled: true, label: { description: "Lobby" } });
  });
});
