// The People Counter's numbers: running statistics and the CSV export. Pure, so they are unit-tested.
export interface Reading {
  at: Date;
  count: number;
}

export interface Stats {
  current: number | null;
  average: number | null;
  min: number | null;
  max: number | null;
  readings: number;
}

export function summarise(readings: readonly Reading[]): Stats {
  if (readings.length === 0) return { current: null, average: null, min: null, max: null, readings: 0 };
  const counts = readings.map((r) => r.count);
  const total = counts.reduce((sum, c) => sum + c, 0);
  return {
    current: counts.at(-1)!,
    average: Math.round((total / counts.length) * 10) / 10,
    min: Math.min(...counts),
    max: Math.max(...counts),
    readings: counts.length,
  };
}

/** RFC 4180 CSV: ISO time, local time and count per reading. */
export function toCsv(readings: readonly Reading[]): string {
  const rows = readings.map((r) => `${r.at.toISOString()},"${r.at.toLocaleTimeString().replace(/"/g, '""')}",${r.count}`);
  return ["timestamp,local_time,people", ...rows].join("\r\n") + "\r\n";
}

export function csvFileName(now = new Date()): string {
  return `people-count-${now.toISOString().slice(0, 19).replace(/[:T]/g, "-")}.csv`;
}

/** Moondream endpoints are http(s) base URLs; trailing slashes are dropped. Null when unusable. */
export function normaliseEndpoint(value: string): string | null {
  try {
    const url = new URL(value.trim());
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.toString().replace(/\/+$/, "");
  } catch {
    return null;
  }
}
