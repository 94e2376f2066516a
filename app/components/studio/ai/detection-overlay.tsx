// Boxes and points drawn on a canvas that covers exactly the displayed picture (the AiOverlays area is
// the picture's letterboxed rectangle), at devicePixelRatio so lines stay crisp: Moondream's results, or local
// detection's tracks (class and track id, at the detector's frame rate) with the same box settings. Redrawn
// only when the results, settings or size change — never per video frame. Popup labels show for the box under the
// pointer (hover, or tap on touch screens) without taking clicks from the preview (click-to-move).
import { useEffect, useMemo, useRef, useState } from "react";
import { boxAt, boxToRect, labelLayout, pointToXY } from "#app/studio/ai/detection-geometry";
import type { DetectionResults } from "#app/studio/ai/detection-controller";
import type { BoxDetectionSettings, PointDetectionSettings } from "#app/studio/ai/detection-settings";
import type { Rect } from "#app/studio/geometry";
import type { LocalTrack } from "#app/studio/local-vision/local-vision-controller";
import { counterRects } from "#app/studio/local-vision/counter-layout";
import { placeTrackLabels } from "#app/studio/local-vision/track-labels";
import type { Box, Point } from "#app/schemas/vision";
import { useAi, useStudio, useStore } from "../studio-context";
import { useParentSize } from "./use-parent-size";
import { useRegionCounters } from "./use-region-counters";

/** What the canvas shows: labelled boxes (Moondream's, all with the query as label, or local tracks) or points. */
export type DetectionDrawing = { kind: "box" | "local"; boxes: Array<{ box: Box; label: string }> } | { kind: "point"; points: Point[] };

function moondreamDrawing(results: DetectionResults): DetectionDrawing {
  if (results.kind === "point") return { kind: "point", points: results.points };
  return { kind: "box", boxes: results.boxes.map((box) => ({ box, label: results.query })) };
}

function localDrawing(tracks: readonly LocalTrack[], showTrackIds: boolean): DetectionDrawing {
  return {
    kind: "local",
    boxes: tracks.map((t) => ({
      box: t.box,
      label: showTrackIds ? `${t.label} #${t.id}` : t.label,
    })),
  };
}

export function drawDetections(
  context: CanvasRenderingContext2D,
  canvas: { width: number; height: number },
  dpr: number,
  results: DetectionDrawing,
  box: BoxDetectionSettings,
  point: PointDetectionSettings,
  hovered: number,
  /** Where the lines' and zones' counters are (canvas pixels): local labels keep off them. */
  avoid: readonly Rect[] = [],
): Array<{ label: Rect; box: Rect }> {
  const frame: Rect = { x: 0, y: 0, width: canvas.width, height: canvas.height };
  if (results.kind === "point") {
    context.fillStyle = point.color;
    context.strokeStyle = "rgba(0,0,0,0.6)";
    context.lineWidth = dpr;
    const radius = (point.size * dpr) / 2;
    for (const p of results.points) {
      const { x, y } = pointToXY(p, frame);
      context.beginPath();
      context.arc(x, y, radius, 0, Math.PI * 2);
      context.fill();
      context.stroke();
    }
    return [];
  }
  const line = box.boxThickness * box.boxBorderMultiplier * dpr;
  context.strokeStyle = box.boxColor;
  context.lineWidth = line;
  const rects = results.boxes.map((b) => boxToRect(b.box, frame));
  for (const r of rects) context.strokeRect(r.x + line / 2, r.y + line / 2, Math.max(0, r.width - line), Math.max(0, r.height - line));
  const drawn: Array<{ label: Rect; box: Rect }> = [];
  // Local tracks' labels are sized to their boxes and kept off each other and the counters (a wide shot has many small people).
  const local =
    results.kind === "local"
      ? placeTrackLabels(
          results.boxes.map((b, i) => ({ text: b.label, box: rects[i]! })),
          box.boxLabelSize,
          box.boxFontSizeMultiplier,
          dpr,
          frame,
          avoid,
        )
      : null;
  rects.forEach((r, i) => {
    if (box.boxLabelMode === "popup" && i !== hovered) return;
    const label = results.boxes[i]!.label;
    const layout = local ? local[i] : labelLayout(label, r, box.boxLabelSize, box.boxFontSizeMultiplier, dpr, frame);
    if (!layout) return;
    drawn.push({ label: layout.rect, box: r });
    context.fillStyle = box.boxColor;
    context.fillRect(layout.rect.x, layout.rect.y, layout.rect.width, layout.rect.height);
    context.fillStyle = "#ffffff";
    context.font = `600 ${layout.font}px system-ui, sans-serif`;
    context.textBaseline = "middle";
    context.fillText(label, layout.textX, layout.textY, layout.rect.width - (layout.textX - layout.rect.x));
  });
  return drawn;
}

export function DetectionOverlay() {
  const ai = useAi();
  const studio = useStudio();
  const results = useStore(ai.detection.store, (s) => s.results);
  const local = useStore(ai.localVision.store, (s) => (s.enabled ? s : null));
  const showTrackIds = useStore(ai.localVisionPrefs.store, (s) => s.showTrackIds);
  const regions = useStore(ai.regions.store, (s) => (s.cameraId ? s.byCamera[s.cameraId] : undefined));
  const counters = useRegionCounters();
  // Where the last frame's labels went and the counters they kept off, for the browser tests (nothing reads them otherwise).
  const [drawnRects, setDrawnRects] = useState({ labels: "", avoided: "" });
  const box = useStore(ai.detection.store, (s) => s.box);
  const point = useStore(ai.detection.store, (s) => s.point);
  const cameraId = useStore(studio.cameras.store, (s) => s.selectedCameraId);
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  // The element is resized and drawn through a ref: React state stays read-only.
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const { width, height, dpr } = useParentSize(canvas);
  const [hovered, setHovered] = useState(-1);
  // One source runs at a time (ai/modes.ts): local tracks while local detection is on, else Moondream's answer.
  const shown = useMemo(() => {
    if (local) return local.cameraId === cameraId ? localDrawing(local.tracks, showTrackIds) : null;
    return results && results.cameraId === cameraId ? moondreamDrawing(results) : null;
  }, [local, results, cameraId, showTrackIds]);
  const popup = shown !== null && shown.kind !== "point" && box.boxLabelMode === "popup" && shown.boxes.length > 0;

  // Popup labels: track the pointer over the picture from the window, since the overlay itself must
  // stay click-through.
  useEffect(() => {
    if (!popup || !canvas) return setHovered(-1);
    const find = (event: PointerEvent) => {
      const bounds = canvas.getBoundingClientRect();
      const rects = shown.boxes.map((b) => boxToRect(b.box, { x: 0, y: 0, width: bounds.width, height: bounds.height }));
      const index = boxAt(rects, event.clientX - bounds.left, event.clientY - bounds.top);
      if (event.type === "pointerdown" && event.pointerType !== "mouse") setHovered((prev) => (prev === index ? -1 : index));
      else if (event.type === "pointermove") setHovered(index);
    };
    window.addEventListener("pointermove", find);
    window.addEventListener("pointerdown", find);
    return () => {
      window.removeEventListener("pointermove", find);
      window.removeEventListener("pointerdown", find);
    };
  }, [popup, canvas, shown]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const w = Math.round(width * dpr);
    const h = Math.round(height * dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    const context = canvas.getContext("2d");
    if (!context) return;
    context.clearRect(0, 0, canvas.width, canvas.height);
    if (!shown || !w || !h) return setDrawnRects({ labels: "", avoided: "" });
    const avoid = regions ? counterRects(regions, counters.text, { width, height }).map((r) => ({ x: r.x * dpr, y: r.y * dpr, width: r.width * dpr, height: r.height * dpr })) : [];
    const drawn = drawDetections(context, canvas, dpr, shown, box, point, hovered, avoid);
    const css = (r: Rect) => [r.x, r.y, r.width, r.height].map((v) => Math.round((v / dpr) * 10) / 10);
    setDrawnRects({ labels: JSON.stringify(drawn.map((d) => ({ label: css(d.label), box: css(d.box) }))), avoided: JSON.stringify(avoid.map(css)) });
    performance.mark("framewise:boxes-drawn");
  }, [canvas, width, height, dpr, shown, box, point, hovered, regions, counters]);

  return (
    <canvas
      ref={(el) => {
        canvasRef.current = el;
        setCanvas(el);
      }}
      className="pointer-events-none absolute inset-0 h-full w-full"
      data-testid="detection-canvas"
      data-count={shown ? (shown.kind === "point" ? shown.points.length : shown.boxes.length) : 0}
      data-kind={shown?.kind ?? ""}
      data-labels={shown && shown.kind !== "point" ? shown.boxes.map((b) => b.label).join("|") : ""}
      data-label-rects={drawnRects.labels}
      data-avoided-rects={drawnRects.avoided}
      aria-hidden="true"
    />
  );
}
