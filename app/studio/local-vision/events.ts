// What lines and zones report, as plain data the studio can draw, count, and later send to the server as webhook events.
import type { VisionBox, VisionEvent } from "../../schemas/local-vision";
import type { Box } from "./geometry";

/** `in`: the anchor crossed to the right-hand side of the line's a→b as seen on screen; `out`: back to its left. */
export type Direction = "in" | "out";

interface EventBase {
  trackId: number;
  label: string;
  /** The frame's time, in the milliseconds the caller passed to `update`. */
  at: number;
  /** The track's box in that frame (normalised 0–1), for the event's photo. */
  box: Box;
}

export interface LineCrossedEvent extends EventBase {
  type: "line.crossed";
  lineId: string;
  direction: Direction;
}

export interface ZoneEnteredEvent extends EventBase {
  type: "zone.entered";
  zoneId: string;
}

export interface ZoneExitedEvent extends EventBase {
  type: "zone.exited";
  zoneId: string;
  /** From the first frame inside to the first frame outside (or the last frame seen, for a track that was lost). */
  dwellSeconds: number;
}

export interface ZoneLoiteringEvent extends EventBase {
  type: "zone.loitering";
  zoneId: string;
  dwellSeconds: number;
}

export type ZoneEvent = ZoneEnteredEvent | ZoneExitedEvent | ZoneLoiteringEvent;
export type LocalVisionEvent = LineCrossedEvent | ZoneEvent;

/** Whether a line or zone cares about this class: an empty or missing list means every class. */
export function labelAllowed(labels: readonly string[] | undefined, label: string): boolean {
  return !labels || labels.length === 0 || labels.includes(label);
}

/** The event as the API takes it: Unix milliseconds, ids as the server gave them. */
export function toPosted(event: LocalVisionEvent, timeOrigin: number): VisionEvent {
  const base = { trackId: event.trackId, label: event.label, at: Math.round(timeOrigin + event.at), box: clampBox(event.box) };
  switch (event.type) {
    case "line.crossed":
      return { type: event.type, lineId: event.lineId, direction: event.direction, ...base };
    case "zone.entered":
      return { type: event.type, zoneId: event.zoneId, ...base };
    case "zone.exited":
    case "zone.loitering":
      return { type: event.type, zoneId: event.zoneId, dwellSeconds: event.dwellSeconds, ...base };
  }
}

/**
 * The event's box as the API takes it (its wire shape, left edge, top edge, width and height: what webhook
 * consumers read, docs/decisions/0013-one-declaration-per-operation.md). A tracked box may reach past the picture's
 * edge; the API takes the part inside it.
 */
function clampBox(box: Box): VisionBox {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  const x = clamp(box.x_min);
  const y = clamp(box.y_min);
  return { x, y, w: Math.max(0, clamp(box.x_max) - x), h: Math.max(0, clamp(box.y_max) - y) };
}
