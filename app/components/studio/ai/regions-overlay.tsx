// Zones and lines over the picture (an SVG in the picture's rectangle, so they scale with it as the boxes do): each
// with its name and counter (today's totals, use-region-counters.ts), a line's direction ("in" on the side a crossing to counts in), the shape being
// drawn, and draggable points on the one being edited (mouse, touch, or arrow keys). Click-through except while
// drawing and on the edited points, so the preview's own clicks (click-to-move) still work.
import { useEffect, useState, type KeyboardEvent, type PointerEvent, type SVGProps } from "react";
import type { Point } from "#app/studio/local-vision/geometry";
import { fromPixels, lineMarker, pixelDistance, toPixels, zoneLabelPoint, type Size } from "#app/studio/local-vision/region-geometry";
import { counterSpot, lineCounterPoint, ZONE_COUNTER_DY } from "#app/studio/local-vision/counter-layout";
import type { RegionKind } from "#app/studio/local-vision/regions-controller";
import type { Line, Zone } from "#app/schemas/local-vision";
import { useAi, useStore } from "../studio-context";
import { useParentSize } from "./use-parent-size";
import { useRegionCounters } from "./use-region-counters";

const LINE_COLOUR = "#facc15";
const ZONE_COLOUR = "#38bdf8";
/** Within this many pixels of a zone's first point, a click closes the zone. */
const CLOSE_PX = 12;
/** A press and release closer than this is a click (a line's first end), not a drag. */
const DRAG_PX = 8;
/** How far an arrow key moves an edited point (of the picture's width or height). */
const NUDGE = 0.01;
const textStyle = { paintOrder: "stroke", stroke: "rgba(0,0,0,0.8)", strokeWidth: 3, fontSize: 12, fontWeight: 600 } as const;

/** The points of a line (a, b) or zone (its polygon) being dragged, shown until the server has the new ones. */
interface Moving {
  kind: RegionKind;
  id: string;
  points: Point[];
}

const linePoints = (line: Line) => [line.a, line.b];

export function RegionsOverlay() {
  const { regions } = useAi();
  const current = useStore(regions.store, (s) => (s.cameraId ? s.byCamera[s.cameraId] : undefined));
  const draft = useStore(regions.store, (s) => s.draft);
  const editing = useStore(regions.store, (s) => s.editing);
  const counters = useRegionCounters();
  const [svg, setSvg] = useState<SVGSVGElement | null>(null);
  const size = useParentSize(svg);
  const [hover, setHover] = useState<Point | null>(null);
  const [pressing, setPressing] = useState(false);
  const [moving, setMoving] = useState<Moving | null>(null);

  useEffect(() => {
    if (!draft) return setHover(null);
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === "Escape") regions.cancelDrawing();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [draft, regions]);

  if (!current && !draft) return null;
  const at = (event: PointerEvent) => {
    const bounds = svg!.getBoundingClientRect();
    return fromPixels(event.clientX - bounds.left, event.clientY - bounds.top, { width: bounds.width, height: bounds.height });
  };

  const onDrawDown = (event: PointerEvent<SVGSVGElement>) => {
    if (!draft) return;
    event.preventDefault();
    const p = at(event);
    if (draft.kind === "zone") {
      const first = draft.points[0];
      if (first && draft.points.length >= 3 && pixelDistance(first, p, size) <= CLOSE_PX) void regions.finishDrawing();
      else regions.setDraftPoints([...draft.points, p]);
      return;
    }
    event.currentTarget.setPointerCapture(event.pointerId);
    setPressing(true);
    regions.setDraftPoints(draft.points.length === 0 ? [p] : [draft.points[0]!, p]);
  };
  const onDrawMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!draft) return;
    const p = at(event);
    setHover(p);
    if (draft.kind === "line" && pressing && draft.points[0]) regions.setDraftPoints([draft.points[0], p]);
  };
  const onDrawUp = () => {
    if (!draft || draft.kind !== "line" || !pressing) return;
    setPressing(false);
    const [a, b] = draft.points;
    // A click places the first end and waits for a second click; a drag, or the second click, makes the line.
    if (a && b && pixelDistance(a, b, size) >= DRAG_PX) void regions.finishDrawing();
    else if (a) regions.setDraftPoints([a]);
  };

  const commit = (next: Moving) => {
    const saved = next.kind === "line" ? regions.updateLine(next.id, { a: next.points[0]!, b: next.points[1]! }) : regions.updateZone(next.id, { polygon: next.points });
    // Until the answer, the dragged shape stays; a refusal (toasted, or a crossing zone's reason in its form) then shows
    // the stored one again.
    void saved.finally(() => setMoving((m) => (m === next ? null : m)));
  };
  const handleProps = (kind: RegionKind, id: string, name: string, points: Point[], index: number, what: string) => ({
    role: "button",
    tabIndex: 0,
    "aria-label": `Move ${what} of ${name} (drag, or arrow keys)`,
    "data-testid": `${kind}-point`,
    style: { pointerEvents: "all", cursor: "grab", touchAction: "none" } as const,
    onPointerDown: (event: PointerEvent<SVGCircleElement>) => {
      event.preventDefault();
      event.stopPropagation();
      event.currentTarget.setPointerCapture(event.pointerId);
      setMoving({ kind, id, points: [...points] });
    },
    onPointerMove: (event: PointerEvent<SVGCircleElement>) => {
      if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
      const p = at(event);
      setMoving((m) => (m && m.id === id ? { ...m, points: m.points.map((q, i) => (i === index ? p : q)) } : m));
    },
    onPointerUp: (event: PointerEvent<SVGCircleElement>) => {
      if (!event.currentTarget.hasPointerCapture(event.pointerId)) return;
      event.currentTarget.releasePointerCapture(event.pointerId);
      // The point goes where the finger or mouse let go: the last move may not have rendered yet (a quick lift).
      // It is the shape shown until the answer, so a refusal can put the stored one back (commit clears this one).
      const p = at(event);
      const final: Moving = { kind, id, points: points.map((q, i) => (i === index ? p : q)) };
      setMoving(final);
      commit(final);
    },
    onKeyDown: (event: KeyboardEvent<SVGCircleElement>) => {
      const step = { ArrowLeft: [-NUDGE, 0], ArrowRight: [NUDGE, 0], ArrowUp: [0, -NUDGE], ArrowDown: [0, NUDGE] }[event.key];
      if (!step) return;
      event.preventDefault();
      const p = points[index]!;
      const moved = fromPixels((p.x + step[0]!) * size.width, (p.y + step[1]!) * size.height, size);
      const next = { kind, id, points: points.map((q, i) => (i === index ? moved : q)) };
      setMoving(next);
      commit(next);
    },
  });

  const shownPoints = (kind: RegionKind, id: string, stored: Point[]) => (moving && moving.kind === kind && moving.id === id ? moving.points : stored);

  return (
    <svg
      ref={setSvg}
      className="absolute inset-0 h-full w-full select-none"
      // Visible overflow: a point on the picture's edge shows whole.
      // No touch gestures while drawing or editing: a finger's move draws or drags a point, never pans or zooms the
      // page (which would cancel the drag). Set here: Chromium ignores touch-action on the shapes inside an <svg>.
      style={{ overflow: "visible", pointerEvents: draft ? "auto" : "none", cursor: draft ? "crosshair" : undefined, touchAction: draft || editing ? "none" : undefined }}
      data-testid="regions-overlay"
      data-drawing={draft?.kind ?? ""}
      aria-label={draft ? (draft.kind === "line" ? "Draw a line: drag across the picture" : "Draw a zone: click its corners") : undefined}
      onPointerDown={onDrawDown}
      onPointerMove={onDrawMove}
      onPointerUp={onDrawUp}
      // Drawing and dragging points never reach the preview's click-to-move.
      onClick={(event) => event.stopPropagation()}
    >
      <defs>
        <marker id="region-arrow" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={LINE_COLOUR} />
        </marker>
      </defs>
      {current?.zones.map((zone) => (
        <ZoneShape
          key={zone.id}
          zone={zone}
          points={shownPoints("zone", zone.id, zone.polygon)}
          size={size}
          label={counters.text[zone.id] ?? zone.name}
          handles={editing?.kind === "zone" && editing.id === zone.id ? (points, i) => handleProps("zone", zone.id, zone.name, points, i, `corner ${i + 1}`) : null}
        />
      ))}
      {current?.lines.map((line) => (
        <LineShape
          key={line.id}
          line={line}
          points={shownPoints("line", line.id, linePoints(line))}
          size={size}
          label={counters.text[line.id] ?? line.name}
          handles={editing?.kind === "line" && editing.id === line.id ? (points, i) => handleProps("line", line.id, line.name, points, i, i === 0 ? "the start" : "the end") : null}
        />
      ))}
      {draft ? <Draft kind={draft.kind} points={draft.points} hover={hover} size={size} /> : null}
    </svg>
  );
}

/** The edited shape's draggable points: their props by index, or null when the shape is not being edited. */
type Handles = ((points: Point[], index: number) => SVGProps<SVGCircleElement>) | null;

function HandleDots({ points, size, colour, handles }: { points: Point[]; size: Size; colour: string; handles: Handles }) {
  if (!handles) return null;
  return points.map((p, i) => {
    const px = toPixels(p, size);
    return <circle key={i} cx={px.x} cy={px.y} r={8} fill="white" stroke={colour} strokeWidth={3} {...handles(points, i)} />;
  });
}

function LineShape({ line, points, size, label, handles }: { line: Line; points: Point[]; size: Size; label: string; handles: Handles }) {
  const [a, b] = points as [Point, Point];
  const pa = toPixels(a, size);
  const pb = toPixels(b, size);
  const { mid, normal, inAt, outAt } = lineMarker(a, b, size);
  return (
    <g data-testid="region-line" data-name={line.name} data-id={line.id}>
      <line x1={pa.x} y1={pa.y} x2={pb.x} y2={pb.y} stroke={LINE_COLOUR} strokeWidth={3} strokeLinecap="round" />
      <line x1={mid.x} y1={mid.y} x2={mid.x + normal.x * 16} y2={mid.y + normal.y * 16} stroke={LINE_COLOUR} strokeWidth={2} markerEnd="url(#region-arrow)" />
      <text x={inAt.x} y={inAt.y} textAnchor="middle" dominantBaseline="middle" fill={LINE_COLOUR} style={textStyle}>
        in
      </text>
      <text x={outAt.x} y={outAt.y} textAnchor="middle" dominantBaseline="middle" fill="white" style={textStyle}>
        out
      </text>
      <text {...counterSpot(lineCounterPoint(a, b), size)} fill="white" style={textStyle} data-testid="line-counter">
        {label}
      </text>
      <HandleDots points={points} size={size} colour={LINE_COLOUR} handles={handles} />
    </g>
  );
}

function ZoneShape({ zone, points, size, label, handles }: { zone: Zone; points: Point[]; size: Size; label: string; handles: Handles }) {
  const path = points.map((p) => toPixels(p, size)).map((p) => `${p.x},${p.y}`);
  return (
    <g data-testid="region-zone" data-name={zone.name} data-id={zone.id}>
      <polygon points={path.join(" ")} fill="rgba(56,189,248,0.15)" stroke={ZONE_COLOUR} strokeWidth={2} strokeLinejoin="round" />
      <text {...counterSpot(zoneLabelPoint(points), size)} dy={ZONE_COUNTER_DY} fill="white" style={textStyle} data-testid="zone-counter">
        {label}
      </text>
      <HandleDots points={points} size={size} colour={ZONE_COLOUR} handles={handles} />
    </g>
  );
}

function Draft({ kind, points, hover, size }: { kind: RegionKind; points: Point[]; hover: Point | null; size: Size }) {
  const shown = kind === "line" ? (points.length === 1 && hover ? [points[0]!, hover] : points) : hover ? [...points, hover] : points;
  const px = shown.map((p) => toPixels(p, size));
  const colour = kind === "line" ? LINE_COLOUR : ZONE_COLOUR;
  const marker = kind === "line" && shown.length === 2 ? lineMarker(shown[0]!, shown[1]!, size) : null;
  return (
    <g data-testid="region-draft" pointerEvents="none">
      <polyline points={px.map((p) => `${p.x},${p.y}`).join(" ")} fill="none" stroke={colour} strokeWidth={2} strokeDasharray="6 4" />
      {marker ? (
        <>
          <line
            x1={marker.mid.x}
            y1={marker.mid.y}
            x2={marker.mid.x + marker.normal.x * 16}
            y2={marker.mid.y + marker.normal.y * 16}
            stroke={colour}
            strokeWidth={2}
            markerEnd="url(#region-arrow)"
          />
          <text x={marker.inAt.x} y={marker.inAt.y} textAnchor="middle" dominantBaseline="middle" fill={colour} style={textStyle}>
            in
          </text>
          <text x={marker.outAt.x} y={marker.outAt.y} textAnchor="middle" dominantBaseline="middle" fill="white" style={textStyle}>
            out
          </text>
        </>
      ) : null}
      {points.map((p, i) => {
        const c = toPixels(p, size);
        // A zone's first point grows once it can close the zone.
        return <circle key={i} cx={c.x} cy={c.y} r={kind === "zone" && i === 0 && points.length >= 3 ? CLOSE_PX : 4} fill={colour} fillOpacity={0.8} />;
      })}
    </g>
  );
}
