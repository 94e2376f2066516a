// "Watch with local vision" for one IP camera (issue 30): on or off, the objects to watch for, frames per second and
// the detection width. The server checks every value: a refusal shows under its field (the watch controller keeps
// it), anything else as a toast; saved, the dialog closes and the card shows the new state at once.
import { useEffect, useId, useRef, useState } from "react";
import { DEFAULT_WATCH_LABELS, WATCH_FPS, WATCH_WIDTH } from "../../schemas/watch";
import type { Camera } from "../../schemas/cameras";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { ClassPicker } from "./ai/class-picker";
import { inputClass } from "./ai/detection-controls";
import { useStore, useStudio } from "./studio-context";

/** The detection widths offered (the server takes any whole number from 320 to 1280). */
export const WATCH_WIDTHS = [320, 480, 640, 960, 1280] as const;

export function WatchDialog({ open, onOpenChange, camera }: { open: boolean; onOpenChange: (open: boolean) => void; camera: Camera }) {
  const { watch: controller } = useStudio();
  const id = useId();
  const saved = useStore(controller.store, (s) => s.watches[camera.id]);
  const errors = useStore(controller.store, (s) => s.fieldErrors);
  const pending = useStore(controller.store, (s) => s.saving === camera.id);
  const [enabled, setEnabled] = useState(false);
  const [labels, setLabels] = useState<string[]>([...DEFAULT_WATCH_LABELS]);
  const [fps, setFps] = useState(String(WATCH_FPS.default));
  const [width, setWidth] = useState<number>(WATCH_WIDTH.default);
  const switchRef = useRef<HTMLInputElement>(null);

  // Filled from the stored watch when opened; not when the poll replaces it meanwhile, which would wipe the choices.
  useEffect(() => {
    if (!open) return;
    controller.clearErrors();
    setEnabled(saved?.enabled ?? false);
    setLabels(saved ? [...saved.labels] : [...DEFAULT_WATCH_LABELS]);
    setFps(String(saved?.fps ?? WATCH_FPS.default));
    setWidth(saved?.width ?? WATCH_WIDTH.default);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only on opening
  }, [open]);

  async function submit() {
    // What was typed goes as it is (an empty box as no number): the server's message says what is wrong.
    const done = await controller.save(camera.id, { enabled, labels, fps: fps.trim() === "" ? Number.NaN : Number(fps), width });
    if (done) onOpenChange(false);
  }

  const error = (field: keyof typeof errors) =>
    errors[field] ? (
      <p id={`${id}-${field}-error`} className="text-sm text-red-400">
        {errors[field]}
      </p>
    ) : null;
  const describedBy = (field: keyof typeof errors) => (errors[field] ? `${id}-${field}-error` : undefined);
  const widths: number[] = WATCH_WIDTHS.includes(width as (typeof WATCH_WIDTHS)[number]) ? [...WATCH_WIDTHS] : [...WATCH_WIDTHS, width].sort((a, b) => a - b);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      onOpenAutoFocus={(event) => {
        // The switch first (not the ✕): it is what the dialog is for.
        event.preventDefault();
        switchRef.current?.focus();
      }}
      title="Watch with local vision"
      description={`${camera.name}: the server runs the local detector on this camera all day and counts its lines and zones, with no browser open.`}
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="space-y-1.5">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-200">
            <input
              type="checkbox"
              role="switch"
              ref={switchRef}
              checked={enabled}
              onChange={(e) => setEnabled(e.target.checked)}
              aria-describedby={describedBy("enabled")}
              className="h-4 w-4 accent-brand-500"
            />
            Watch with local vision
          </label>
          {error("enabled")}
        </div>
        <div className="space-y-1.5">
          <ClassPicker
            legend="Objects to watch for"
            value={labels}
            onChange={setLabels}
            empty="None picked: choose at least one"
            describedBy={describedBy("labels")}
            testId="watch-classes"
          />
          {error("labels")}
        </div>
        <Field
          id={`${id}-fps`}
          label="Frames per second"
          type="number"
          inputMode="numeric"
          min={WATCH_FPS.min}
          max={WATCH_FPS.max}
          step={1}
          value={fps}
          onChange={(e) => setFps(e.target.value)}
          errors={errors.fps ? [errors.fps] : undefined}
        />
        <div className="space-y-1.5">
          <label htmlFor={`${id}-width`} className="block text-sm font-medium text-slate-200">
            Detection width
          </label>
          <select
            id={`${id}-width`}
            value={width}
            onChange={(e) => setWidth(Number(e.target.value))}
            aria-invalid={errors.width ? true : undefined}
            aria-describedby={describedBy("width")}
            className={inputClass}
          >
            {widths.map((w) => (
              <option key={w} value={w}>
                {w} px
              </option>
            ))}
          </select>
          {error("width")}
        </div>
        <p className="text-xs text-slate-400">
          While it is on, the server decodes this camera&apos;s stream at this rate and width and counts its lines and zones itself, with no browser open; the studio shows what it
          counts.
        </p>
        <p className="text-xs text-emerald-300" data-testid="watch-cost">
          Runs on this server: no AI calls
        </p>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={pending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? "Saving…" : "Save"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
