// Settings → Video: resolution and frame rate, saved on the camera; the stream reconnects with them.
import { DEFAULT_FRAME_RATE, DEFAULT_RESOLUTION, FRAME_RATES, RESOLUTIONS } from "../../studio/settings";
import { useStudio, useStore } from "./studio-context";

export function VideoSettings() {
  const studio = useStudio();
  const camera = useStore(studio.cameras.store, (s) => s.cameras.find((c) => c.id === s.selectedCameraId) ?? null);
  const enabled = Boolean(camera?.deviceId);
  const width = camera?.videoWidth ?? DEFAULT_RESOLUTION.width;
  const height = camera?.videoHeight ?? DEFAULT_RESOLUTION.height;
  const frameRate = camera?.frameRate ?? DEFAULT_FRAME_RATE;
  const select = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm disabled:opacity-50";
  return (
    <section className="space-y-3">
      <h3 className="text-sm font-semibold text-white">Video</h3>
      {!enabled ? <p className="text-xs text-slate-400">Select a webcam to configure video settings</p> : null}
      <label className="grid gap-1 text-sm text-slate-300">
        Resolution
        <select
          className={select}
          disabled={!enabled}
          value={`${width}x${height}`}
          onChange={(e) => {
            const choice = RESOLUTIONS.find((r) => r.label === e.target.value);
            if (choice) void studio.cameras.applyVideoSettings({ videoWidth: choice.width, videoHeight: choice.height, frameRate });
          }}
        >
          {RESOLUTIONS.map((r) => (
            <option key={r.label} value={r.label}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <label className="grid gap-1 text-sm text-slate-300">
        Frame rate
        <select
          className={select}
          disabled={!enabled}
          value={frameRate}
          onChange={(e) => void studio.cameras.applyVideoSettings({ videoWidth: width, videoHeight: height, frameRate: Number(e.target.value) })}
        >
          {FRAME_RATES.map((fps) => (
            <option key={fps} value={fps}>
              {fps} fps
            </option>
          ))}
        </select>
      </label>
    </section>
  );
}
