// The Automate tab's auto-capture on detection (on a phone also in the settings menu): the switch and the
// status — monitoring only while auto-capture and box detection both run. The Detections tab the warning names
// is in the side panel and in the phone's AI sheet.
import { autoCaptureStatus, AUTO_CAPTURE_GAP_MS } from "#app/studio/ai/auto-capture";
import { Button } from "../../ui/button";
import { useAi, useStore } from "../studio-context";
import { CommandToggle } from "../command-controls";
import { Section } from "./detection-controls";

export function AutoCaptureSection() {
  const { autoCapture, detection } = useAi();
  const enabled = useStore(autoCapture.store, (s) => s.enabled);
  const saved = useStore(autoCapture.store, (s) => s.saved);
  const box = useStore(detection.store, (s) => s.box);
  const status = autoCaptureStatus(enabled, box);
  return (
    <Section title="Auto-Capture on Detection" testId="auto-capture">
      <CommandToggle id="ai.auto-capture" />
      <p className="text-xs text-slate-400">Saves a photo with the detected boxes whenever box detection finds something, at most once every {AUTO_CAPTURE_GAP_MS / 1000} s.</p>
      <div className="rounded-md border border-ink-700 bg-ink-950 p-3 text-sm" aria-live="polite" data-testid="auto-capture-status">
        {status.monitoring ? (
          <p className="flex items-center gap-2 text-emerald-300">
            <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-400" aria-hidden="true" />
            Monitoring for {status.query}
          </p>
        ) : (
          <>
            <p className="text-slate-300">Waiting for box detection</p>
            <p className="mt-1 text-xs text-amber-300" role="note">
              Enable box detection (Detections tab, Moondream source) for auto-capture to work.
            </p>
            {!box.enabled ? (
              <Button variant="secondary" className="mt-2 px-2.5 py-1 text-xs" onClick={() => detection.setBoxEnabled(true)}>
                Enable box detection
              </Button>
            ) : null}
          </>
        )}
        {saved ? <p className="mt-2 text-xs text-slate-400">{saved === 1 ? "1 photo" : `${saved} photos`} auto-captured this session</p> : null}
      </div>
    </Section>
  );
}
