// The server's PTZ follow without a camera: which track it follows (the same one while it lives, of the chosen class,
// from the start zone when there is one), one command on the wire at a time (a newer one replaces a waiting one, a
// preset recall is never dropped), a lost subject's preset, and the end (a switch-off stops the camera, a manual
// takeover leaves it alone).
import pino from "pino";
import { describe, expect, it } from "vitest";
import type { FollowSettingRow } from "#db/schema";
import { DEFAULT_FOLLOW } from "#app/schemas/watch";
import type { LiveScene } from "./camera-pipeline";
import { pickFollowTrack, ServerFollow, type FollowCamera } from "./follow";

const log = pino({ level: "silent" });
const box = (x: number, y: number, w = 0.1, h = 0.3) => ({ x_min: x - w / 2, x_max: x + w / 2, y_min: y - h / 2, y_max: y + h / 2 });
const track = (id: number, x: number, y: number, label = "person") => ({ id, label, box: box(x, y), score: 0.9 });
const scene = (at: number, tracks: LiveScene["tracks"], zoneOccupancy: LiveScene["zoneOccupancy"] = {}): LiveScene => ({ at, tracks, lineCounts: {}, zoneOccupancy });
const occupancy = (...trackIds: number[]) => ({
  count: trackIds.length,
  byLabel: {},
  occupants: trackIds.map((trackId) => ({ trackId, label: "person", enteredAt: 0, dwellSeconds: 0 })),
});
const SETTING: FollowSettingRow = { ...DEFAULT_FOLLOW, enabled: true, returnPreset: 7, lostSeconds: 2 };

/** A camera whose commands wait until the test lets them through. */
function heldCamera() {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  const held = (call: string) => {
    calls.push(call);
    return new Promise<void>((resolve) => waiting.push(resolve));
  };
  const camera: FollowCamera = {
    drive: (pan, tilt, zoom) => held(`drive ${pan} ${tilt}${zoom === undefined ? "" : ` ${zoom}`}`),
    stop: () => held("stop"),
    recallPreset: (n) => held(`preset ${n}`),
  };
  const release = async () => {
    waiting.shift()?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { camera, calls, release, inFlight: () => waiting.length };
}

describe("pickFollowTrack", () => {
  it("keeps the track it follows while it lives, even when another of the class is nearer the centre", () => {
    const picked = pickFollowTrack(scene(0, [track(1, 0.5, 0.5), track(2, 0.9, 0.5)]), SETTING, { trackId: 2, last: { x: 0.9, y: 0.5 } });
    expect(picked?.id).toBe(2);
  });

  it("takes only the chosen class, nearest where the subject was last seen when its track is gone", () => {
    const tracks = [track(1, 0.5, 0.5, "car"), track(3, 0.2, 0.5), track(4, 0.7, 0.5)];
    expect(pickFollowTrack(scene(0, tracks), SETTING, { trackId: 2, last: { x: 0.8, y: 0.5 } })?.id).toBe(4);
    expect(pickFollowTrack(scene(0, tracks), { ...SETTING, label: "dog" }, { trackId: null, last: null })).toBeNull();
  });

  it("with a start zone, starts only on a track inside it", () => {
    const tracks = [track(1, 0.5, 0.5), track(2, 0.1, 0.5)];
    const zoned = { ...SETTING, startZoneId: "zone-a" };
    expect(pickFollowTrack(scene(0, tracks, { "zone-a": occupancy() }), zoned, { trackId: null, last: null })).toBeNull();
    expect(pickFollowTrack(scene(0, tracks, { "zone-a": occupancy(2) }), zoned, { trackId: null, last: null })?.id).toBe(2);
  });
});

describe("ServerFollow", () => {
  it("turns toward an off-centre subject with one command on the wire, the newest waiting", async () => {
    const { camera, calls, release, inFlight } = heldCamera();
    const follow = new ServerFollow(SETTING, camera, log);
    follow.onScene(scene(0, [track(1, 0.9, 0.5)]));
    follow.onScene(scene(200, [track(1, 0.85, 0.5)]));
    follow.onScene(scene(400, [track(1, 0.8, 0.5)]));
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(/^drive [1-9]\d* 0$/); // right, no tilt, no zoom (zoom off)
    expect(inFlight()).toBe(1);
    await release();
    expect(calls).toHaveLength(2); // the newest of the two waiting, not both
    expect(follow.phase).toBe("following");
  });

  it("stops when the subject goes, recalls the return preset once it is lost, and never drops the recall for a newer command", async () => {
    const { camera, calls, release } = heldCamera();
    const follow = new ServerFollow(SETTING, camera, log);
    follow.onScene(scene(0, [track(1, 0.9, 0.5)]));
    await release();
    follow.onScene(scene(500, [])); // gone: a stop (drive 0 0)
    follow.onScene(scene(2600, [])); // lost (2 s): the preset, waiting behind the stop
    follow.onScene(scene(2800, [])); // still nothing: nothing more to send
    await release();
    await release();
    expect(calls.slice(1)).toEqual(["drive 0 0", "preset 7"]);
    expect(follow.phase).toBe("lost");
  });

  it("with a start zone, waits for a subject in the zone, then follows it out of the zone", async () => {
    const { camera, calls, release } = heldCamera();
    const follow = new ServerFollow({ ...SETTING, startZoneId: "door" }, camera, log);
    follow.onScene(scene(0, [track(1, 0.9, 0.5)], { door: occupancy() }));
    expect(calls).toEqual([]);
    follow.onScene(scene(200, [track(1, 0.9, 0.5)], { door: occupancy(1) }));
    expect(calls).toHaveLength(1);
    await release();
    follow.onScene(scene(400, [track(1, 0.95, 0.5)], { door: occupancy() }));
    expect(calls).toHaveLength(2);
  });

  it("switched off, stops a moving camera after the command on the wire; taken over by hand, sends nothing more", async () => {
    const off = heldCamera();
    const follow = new ServerFollow(SETTING, off.camera, log);
    follow.onScene(scene(0, [track(1, 0.9, 0.5)]));
    const ended = follow.end(true);
    await off.release();
    await off.release();
    await ended;
    expect(off.calls.at(-1)).toBe("stop");

    const manual = heldCamera();
    const taken = new ServerFollow(SETTING, manual.camera, log);
    taken.onScene(scene(0, [track(1, 0.9, 0.5)]));
    taken.onScene(scene(200, [track(1, 0.9, 0.5)]));
    const ending = taken.end(false);
    await manual.release();
    await ending;
    taken.onScene(scene(400, [track(1, 0.9, 0.5)]));
    expect(manual.calls).toHaveLength(1); // the waiting command was dropped, nothing after
  });
});
