// Port lists such as "80,443,8000-8100" (PTZ_ALLOWED_PORTS): parsed once from config, checked before connecting.
/** Camera protocols' ports: HTTP (80, 443, 8080), ONVIF (80, 8000, 8080, 2020), VISCA over IP (1259, 5678, 52381), RTSP (554, 8554), RTSPS (322). */
export const CAMERA_PORTS = "80,322,443,554,1259,2020,5678,8000,8080,8554,52381";

export interface PortRange {
  from: number;
  to: number;
}

/** Parses a comma-separated list of ports and ranges; throws naming the first bad entry. */
export function parsePorts(value: string): PortRange[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = /^(\d{1,5})(?:\s*-\s*(\d{1,5}))?$/.exec(entry);
      const from = Number(match?.[1]);
      const to = match?.[2] === undefined ? from : Number(match[2]);
      if (!match || from < 1 || to > 65535 || from > to) throw new Error(`"${entry}" is not a port or range of ports (1–65535)`);
      return { from, to };
    });
}

export function portAllowed(ranges: readonly PortRange[], port: number): boolean {
  return ranges.some((range) => port >= range.from && port <= range.to);
}

/** "80, 443, 8000–8100", for messages. */
export function describePorts(ranges: readonly PortRange[]): string {
  return ranges.map((range) => (range.from === range.to ? String(range.from) : `${range.from}–${range.to}`)).join(", ");
}
