// The regions controller against an in-memory API: loading per camera into the scene, the API's shapes mapped to
// the pure definitions, drawing, editing, reset and delete, and refusals shown as toasts with the problem's detail.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api/errors";
import type { Line, LineInput, VisionPoint, Zone, ZoneInput } from "../../schemas/local-vision";
import { createStore } from "../store";
import type { LocalRegions } from "./local-vision-controller";
import { ZONE_EDGES_CROSS } from "./region-geometry";
import { toLineDefinition, toZoneDefinition } from "./region-definitions";
import { clampPoint, lineCounterText, nextName, zoneCounterText, RegionsController, type RegionsApi } from "./regions-controller";

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
const CAM_1 = uuid(901);
const CAM_2 = uuid(902);

function line(id: string, cameraId = CAM_1, extra: Partial<Line> = {}): Line {
  return {
    id,
    cameraId,
    name: "Door",
    a: { x: 0.5, y: 0 },
    b: { x: 0.5, y: 1 },
    labels: ["person"],
    anchor: "bottom-centre",
    settleFrames: 3,
    capturePhoto: false,
    describePrompt: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

function zone(id: string, cameraId = CAM_1, extra: Partial<Zone> = {}): Zone {
  return {
    id,
    cameraId,
    name: "Till",
    polygon: [
      { x: 0, y: 0 },
      { x: 0.5, y: 0 },
      { x: 0.5, y: 0.5 },
    ],
    labels: [],
    anchor: "centre",
    inertia: 2,
    loiterSeconds: 30,
    capturePhoto: true,
    describePrompt: "Who is it?",
    createdAt: "2026-01-01T00:00:00.000Z",
    ...extra,
  };
}

const problem = (status: number, detail: string) => new ApiError(status, JSON.stringify({ type: "about:blank", title: "Bad", status, detail }), "Bad");

function harness(seed: { lines?: Line[]; zones?: Zone[] } = {}) {
  const db = { lines: [...(seed.lines ?? [])], zones: [...(seed.zones ?? [])] };
  const calls: string[] = [];
  let next = 100;
  let refuse: ApiError | null = null;
  const guard = <T>(name: string, answer: () => T): Promise<T> => {
    calls.push(name);
    if (refuse) return Promise.reject(refuse);
    return Promise.resolve(answer());
  };
  const api: RegionsApi = {
    lines: (cameraId) => guard(`lines ${cameraId}`, () => db.lines.filter((l) => l.cameraId === cameraId)),
    zones: (cameraId) => guard(`zones ${cameraId}`, () => db.zones.filter((z) => z.cameraId === cameraId)),
    createLine: (cameraId, body) =>
      guard("createLine", () => {
        const created = line(uuid(next++), cameraId, {
          ...(body as LineInput),
          labels: body.labels ?? [],
          anchor: body.anchor ?? "bottom-centre",
          settleFrames: body.settleFrames ?? 3,
        });
        db.lines.push(created);
        return created;
      }),
    createZone: (cameraId, body) =>
      guard("createZone", () => {
        const created = zone(uuid(next++), cameraId, { ...(body as ZoneInput), labels: body.labels ?? [], anchor: body.anchor ?? "bottom-centre", inertia: 3, loiterSeconds: 0 });
        db.zones.push(created);
        return created;
      }),
    updateLine: (id, body) =>
      guard(`updateLine ${id}`, () => {
        const i = db.lines.findIndex((l) => l.id === id);
        db.lines[i] = { ...db.lines[i]!, ...(body as LineInput) };
        return db.lines[i]!;
      }),
    updateZone: (id, body) =>
      guard(`updateZone ${id}`, () => {
        const i = db.zones.findIndex((z) => z.id === id);
        db.zones[i] = { ...db.zones[i]!, ...(body as ZoneInput) };
        return db.zones[i]!;
      }),
    removeLine: (id) => guard(`removeLine ${id}`, () => void (db.lines = db.lines.filter((l) => l.id !== id))),
    removeZone: (id) => guard(`removeZone ${id}`, () => void (db.zones = db.zones.filter((z) => z.id !== id))),
    resetLine: (id) => guard(`resetLine ${id}`, () => undefined),
    resetZone: (id) => guard(`resetZone ${id}`, () => undefined),
  };
  const cameras = { store: createStore({ selectedCameraId: CAM_1 as string | null }) };
  const scene: Array<{ cameraId: string; regions: LocalRegions }> = [];
  const resets: string[] = [];
  const localVision = {
    store: createStore({ classes: ["person", "dog"] as readonly string[], enabled: false, countingPeople: false }),
    setRegions: (cameraId: string, regions: LocalRegions) => void scene.push({ cameraId, regions }),
    resetLine: (id: string) => void resets.push(id),
  };
  const toasts: Array<{ title: string; description?: string }> = [];
  const notify = { toast: (t: { title: string; description?: string }) => void toasts.push(t) };
  const regions = new RegionsController({ cameras, localVision, notify, api });
  return { regions, db, calls, cameras, scene, resets, toasts, localVision, refuse: (error: ApiError | null) => void (refuse = error) };
}

describe("API lines and zones as the scene's definitions", () => {
  it("keep the id, points, classes, anchor and frame counts (and drop names and actions)", () => {
    expect(toLineDefinition(line(uuid(1)))).toEqual({ id: uuid(1), a: { x: 0.5, y: 0 }, b: { x: 0.5, y: 1 }, labels: ["person"], anchor: "bottom-centre", settleFrames: 3 });
    expect(toZoneDefinition(zone(uuid(2)))).toEqual({
      id: uuid(2),
      polygon: zone(uuid(2)).polygon,
      labels: [],
      anchor: "centre",
      inertia: 2,
      loiterSeconds: 30,
    });
  });

  it("name new ones with the first free number, and keep drawn points on the picture", () => {
    expect(nextName("line", [])).toBe("Line 1");
    expect(nextName("zone", [{ name: "Zone 2" }])).toBe("Zone 3");
    expect(nextName("line", [{ name: "Door" }, { name: "Line 2" }])).toBe("Line 3");
    expect(clampPoint({ x: -0.2, y: 1.3 })).toEqual({ x: 0, y: 1 });
    expect(clampPoint({ x: 0.123456, y: 0.5 })).toEqual({ x: 0.1235, y: 0.5 });
  });
});

describe("counters", () => {
  it("read as the preview shows them: today's totals, and who is inside a zone while something watches", () => {
    expect(lineCounterText("Door", { in: 3, out: 1 })).toBe("Door: 3 in · 1 out today");
    expect(lineCounterText("Door", undefined)).toBe("Door: 0 in · 0 out today");
    expect(zoneCounterText("Till", { entered: 5 }, { count: 2 })).toBe("Till: 2 inside · 5 entered today");
    expect(zoneCounterText("Till", undefined, { count: 0 })).toBe("Till: 0 inside · 0 entered today");
    expect(zoneCounterText("Till", { entered: 5 }, null)).toBe("Till: 5 entered today");
  });
});

describe("RegionsController", () => {
  it("loads the selected camera's lines and zones once and hands them to the scene", async () => {
    const h = harness({ lines: [line(uuid(1)), line(uuid(9), CAM_2)], zones: [zone(uuid(2))] });
    await Promise.all([h.regions.load(), h.regions.load()]);
    expect(h.calls).toEqual([`lines ${CAM_1}`, `zones ${CAM_1}`]);
    expect(h.regions.current().lines.map((l) => l.id)).toEqual([uuid(1)]);
    expect(h.scene.at(-1)).toEqual({ cameraId: CAM_1, regions: { lines: [toLineDefinition(line(uuid(1)))], zones: [toZoneDefinition(zone(uuid(2)))] } });
    await h.regions.load();
    expect(h.calls).toHaveLength(2);
  });

  it("follows the selected camera, handing the scene a cached camera's regions again without asking the server", async () => {
    const h = harness({ lines: [line(uuid(1)), line(uuid(9), CAM_2)] });
    await h.regions.load();
    h.cameras.store.set({ selectedCameraId: CAM_2 });
    await h.regions.load();
    expect(h.scene.at(-1)!.cameraId).toBe(CAM_2);
    expect(h.regions.current().lines.map((l) => l.id)).toEqual([uuid(9)]);
    h.cameras.store.set({ selectedCameraId: CAM_1 });
    expect(h.scene.at(-1)).toMatchObject({ cameraId: CAM_1, regions: { lines: [{ id: uuid(1) }] } });
    expect(h.calls.filter((c) => c.startsWith("lines"))).toHaveLength(2);
  });

  it("loads the selected camera's lines and zones as soon as it is selected, whether or not anything counts", async () => {
    const h = harness({ zones: [zone(uuid(2))], lines: [line(uuid(3), CAM_2)] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.scene.at(-1)).toMatchObject({ cameraId: CAM_1, regions: { zones: [{ id: uuid(2) }] } });
    h.cameras.store.set({ selectedCameraId: CAM_2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.regions.current().lines.map((l) => l.id)).toEqual([uuid(3)]);
    expect(h.localVision.store.get()).toMatchObject({ enabled: false, countingPeople: false });
  });

  it("tries a failed camera again when local detection starts", async () => {
    const h = harness({ zones: [zone(uuid(2), CAM_2)] });
    h.refuse(problem(500, "Down"));
    h.cameras.store.set({ selectedCameraId: CAM_2 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.regions.current().zones).toEqual([]);
    h.refuse(null);
    h.localVision.store.set({ countingPeople: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.scene.at(-1)).toMatchObject({ cameraId: CAM_2, regions: { zones: [{ id: uuid(2) }] } });
  });

  it("saves a drawn line with the picked classes and a free name, and opens it for editing", async () => {
    const h = harness({ lines: [line(uuid(1), CAM_1, { name: "Line 1" })] });
    await h.regions.load();
    h.regions.startDrawing("line");
    h.regions.setDraftPoints([{ x: 0.2, y: -0.1 }]);
    expect(await h.regions.finishDrawing()).toBe(false); // one end is not a line
    h.regions.setDraftPoints([
      { x: 0.2, y: -0.1 },
      { x: 0.2, y: 0.9 },
    ]);
    expect(await h.regions.finishDrawing()).toBe(true);
    const saved = h.db.lines.at(-1)!;
    expect(saved).toMatchObject({ name: "Line 2", a: { x: 0.2, y: 0 }, b: { x: 0.2, y: 0.9 }, labels: ["person", "dog"] });
    expect(h.regions.store.get()).toMatchObject({ draft: null, editing: { kind: "line", id: saved.id } });
    expect(h.scene.at(-1)!.regions.lines.map((l) => l.id)).toEqual([uuid(1), saved.id]);
  });

  it("saves a drawn zone of three or more points; cancelling keeps nothing", async () => {
    const h = harness();
    await h.regions.load();
    h.regions.startDrawing("zone");
    h.regions.setDraftPoints([
      { x: 0.1, y: 0.1 },
      { x: 0.4, y: 0.1 },
    ]);
    expect(await h.regions.finishDrawing()).toBe(false);
    h.regions.cancelDrawing();
    expect(h.regions.store.get().draft).toBeNull();
    h.regions.startDrawing("zone");
    h.regions.setDraftPoints([
      { x: 0.1, y: 0.1 },
      { x: 0.4, y: 0.1 },
      { x: 0.4, y: 0.6 },
    ]);
    expect(await h.regions.finishDrawing()).toBe(true);
    expect(h.db.zones).toHaveLength(1);
    expect(h.scene.at(-1)!.regions.zones[0]!.polygon).toHaveLength(3);
  });

  it("sends no zone whose edges cross: the reason shows, the drawing stays open, the saved zone stays as it was", async () => {
    const h = harness({ zones: [zone(uuid(2))] });
    await h.regions.load();
    const square = [
      { x: 0.1, y: 0.1 },
      { x: 0.9, y: 0.1 },
      { x: 0.9, y: 0.9 },
      { x: 0.1, y: 0.9 },
    ];
    const [a, b, c, d] = square as [VisionPoint, VisionPoint, VisionPoint, VisionPoint];
    h.regions.startDrawing("zone");
    h.regions.setDraftPoints([a, b, d, c]);
    expect(h.regions.store.get().shapeProblem).toBeNull();
    expect(await h.regions.finishDrawing()).toBe(false); // closing it makes a bow-tie
    expect(h.regions.store.get()).toMatchObject({ shapeProblem: ZONE_EDGES_CROSS, draft: { kind: "zone", points: [a, b, d, c] } });
    // A corner whose edge crosses those drawn is not placed.
    h.regions.setDraftPoints([a, b, d, c, { x: 0.5, y: 0.05 }]);
    expect(h.regions.store.get().draft!.points).toHaveLength(4);
    expect(h.regions.store.get().shapeProblem).toBe(ZONE_EDGES_CROSS);
    h.regions.cancelDrawing();
    expect(h.regions.store.get().shapeProblem).toBeNull();

    // Dragging a saved zone's corner into a bow-tie sends nothing; a proper shape is saved and clears the reason.
    h.regions.edit({ kind: "zone", id: uuid(2) });
    expect(await h.regions.updateZone(uuid(2), { polygon: [a, b, d, c] })).toBe(false);
    expect(h.regions.store.get().shapeProblem).toBe(ZONE_EDGES_CROSS);
    expect(h.calls.filter((call) => call.startsWith("update"))).toEqual([]);
    expect(h.regions.current().zones[0]!.polygon).toEqual(zone(uuid(2)).polygon);
    expect(await h.regions.updateZone(uuid(2), { polygon: square })).toBe(true);
    expect(h.regions.store.get().shapeProblem).toBeNull();
    expect(h.db.zones[0]!.polygon).toEqual(square);
  });

  it("edits a line with its other fields kept, and the scene gets the new geometry", async () => {
    const h = harness({ lines: [line(uuid(1), CAM_1, { capturePhoto: true, describePrompt: "Who?" })] });
    await h.regions.load();
    expect(await h.regions.updateLine(uuid(1), { b: { x: 0.7, y: 1 } })).toBe(true);
    expect(h.db.lines[0]).toMatchObject({ name: "Door", a: { x: 0.5, y: 0 }, b: { x: 0.7, y: 1 }, capturePhoto: true, describePrompt: "Who?" });
    expect(h.scene.at(-1)!.regions.lines[0]!.b).toEqual({ x: 0.7, y: 1 });
  });

  it("shows the server's refusal in a toast and keeps the region as it was", async () => {
    const h = harness({ zones: [zone(uuid(2))] });
    await h.regions.load();
    const before = h.scene.length;
    h.refuse(problem(400, "Name is required"));
    expect(
      await h.regions.updateZone(uuid(2), {
        name: " ",
        polygon: [
          { x: 0, y: 0 },
          { x: 0.1, y: 0 },
          { x: 0.2, y: 0.2 },
        ],
      }),
    ).toBe(false);
    expect(h.toasts.at(-1)).toEqual({ title: "Could not save the zone", description: "Name is required", variant: "destructive" });
    expect(h.regions.current().zones[0]!.polygon).toEqual(zone(uuid(2)).polygon);
    expect(h.scene).toHaveLength(before);
    expect(await h.regions.remove("zone", uuid(2))).toBe(false);
    expect(h.regions.current().zones).toHaveLength(1);
  });

  it("resets a line on the server and on the preview; a zone's reset is the server's alone", async () => {
    const h = harness({ lines: [line(uuid(1))], zones: [zone(uuid(2))] });
    await h.regions.load();
    expect(await h.regions.reset("line", uuid(1))).toBe(true);
    expect(await h.regions.reset("zone", uuid(2))).toBe(true);
    expect(h.calls).toContain(`resetLine ${uuid(1)}`);
    expect(h.calls).toContain(`resetZone ${uuid(2)}`);
    expect(h.resets).toEqual([uuid(1)]);
    h.refuse(problem(404, "Line not found"));
    expect(await h.regions.reset("line", uuid(1))).toBe(false);
    expect(h.resets).toEqual([uuid(1)]);
    expect(h.toasts.at(-1)!.description).toBe("Line not found");
  });

  it("deletes a line from the server, the list, the scene and the editor", async () => {
    const h = harness({ lines: [line(uuid(1))] });
    await h.regions.load();
    h.regions.edit({ kind: "line", id: uuid(1) });
    expect(await h.regions.remove("line", uuid(1))).toBe(true);
    expect(h.db.lines).toEqual([]);
    expect(h.regions.store.get().editing).toBeNull();
    expect(h.scene.at(-1)!.regions.lines).toEqual([]);
  });

  it("a failed load is said once, in a toast", async () => {
    const h = harness();
    h.refuse(problem(404, "Camera not found"));
    h.cameras.store.set({ selectedCameraId: CAM_2 });
    await h.regions.load();
    expect(h.toasts).toEqual([{ title: "Could not load the zones and lines", description: "Camera not found", variant: "destructive" }]);
    expect(h.regions.store.get().loading).toBe(false);
  });
});
