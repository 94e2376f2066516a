// The admin dashboard's "Local detector" tab: which detector the studios run (the built-in one or an uploaded ONNX
// model), the uploaded models with "Use" and "Delete", and the upload form. The server checks every upload with ONNX
// Runtime; its message shows under the field it is about. After each change the page's loader reads the list again.
import { format as formatDate } from "date-fns";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { useRevalidator } from "react-router";
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import { localDetectorApi } from "../../lib/api/local-detector";
import { MAX_DETECTOR_MODEL_BYTES, type DetectorModel, type LocalDetector } from "../../schemas/local-detector";
import { COCO_LABELS } from "../../studio/local-vision/coco-labels";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { toast } from "../ui/toast-store";

const FORMAT_NAMES = { yolo: "YOLO", detr: "DETR family" } as const;

type FieldName = "name" | "format" | "pixelScaling" | "labels" | "file";
type FieldErrors = Partial<Record<FieldName, string>>;
const FIELD_IDS: Record<FieldName, string> = {
  name: "detector-name",
  format: "detector-format",
  pixelScaling: "detector-pixel-scaling",
  labels: "detector-labels",
  file: "detector-file",
};

function megabytes(bytes: number): string {
  const mb = bytes / 1024 / 1024;
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function LocalDetectorTab({ detector, models }: { detector: LocalDetector; models: DetectorModel[] }) {
  const revalidator = useRevalidator();
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<DetectorModel | null>(null);

  const run = async (what: string, action: () => Promise<unknown>, success: { title: string; description?: string }) => {
    setBusy(what);
    try {
      await action();
      toast(success);
      await revalidator.revalidate();
    } catch (error) {
      toast({ title: "That did not work", description: errorDetail(error, "Try again in a moment."), variant: "destructive" });
    } finally {
      setBusy(null);
    }
  };
  const use = (model: DetectorModel | null) =>
    run(model?.id ?? "built-in", () => localDetectorApi.setActive(model?.id ?? null), {
      title: "Detector changed",
      description: `The studios now use ${model ? model.name : "the built-in detector"}.`,
    });

  return (
    <div className="grid gap-8">
      <section aria-labelledby="current-detector" className="rounded-lg border border-ink-700 bg-ink-900 p-4">
        <h2 id="current-detector" className="text-lg font-semibold text-white">
          The studios use
        </h2>
        {detector.kind === "built-in" ? (
          <p className="mt-2 text-slate-300" data-testid="current-detector">
            {detector.name} · {detector.labels.length} labels
          </p>
        ) : (
          <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
            <p className="text-slate-300" data-testid="current-detector">
              <span className="font-medium text-white">{detector.name}</span> · {FORMAT_NAMES[detector.format]} · {detector.inputWidth}×{detector.inputHeight} input ·{" "}
              {detector.labels.length} labels
            </p>
            <Button variant="secondary" disabled={busy !== null} onClick={() => void use(null)}>
              Use the built-in detector
            </Button>
          </div>
        )}
      </section>

      <section aria-labelledby="uploaded-models">
        <h2 id="uploaded-models" className="text-lg font-semibold text-white">
          Uploaded models
        </h2>
        {models.length === 0 ? (
          <p className="mt-2 text-slate-400">No models uploaded yet</p>
        ) : (
          <ul className="mt-3 grid gap-3">
            {models.map((model) => (
              <li key={model.id} className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-ink-700 bg-ink-900 p-4">
                <div className="min-w-0">
                  <p className="font-medium break-words text-white">
                    {model.name}
                    {model.active ? <span className="ml-2 rounded-full bg-emerald-900/60 px-2 py-0.5 text-xs text-emerald-300 ring-1 ring-emerald-700">In use</span> : null}
                  </p>
                  <p className="mt-1 text-sm text-slate-300">
                    {FORMAT_NAMES[model.format]} · {model.inputWidth}×{model.inputHeight} input · {model.labels.length} labels · {megabytes(model.bytes)}
                  </p>
                  <p className="mt-1 text-xs text-slate-400">
                    Uploaded {formatDate(new Date(model.uploadedAt), "MMM d, yyyy 'at' h:mm a")} by {model.uploadedBy ?? "Unknown User"}
                  </p>
                </div>
                <div className="flex gap-2">
                  {model.active ? null : (
                    <Button variant="secondary" disabled={busy !== null} onClick={() => void use(model)} aria-label={`Use ${model.name}`}>
                      Use
                    </Button>
                  )}
                  <Button variant="ghost" disabled={busy !== null} onClick={() => setDeleting(model)} aria-label={`Delete ${model.name}`}>
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <UploadForm onUploaded={() => revalidator.revalidate()} />

      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete ${deleting?.name ?? "the model"}?`}
        description={deleting?.active ? "The studios use it now: they go back to the built-in detector." : "Its file is removed from the server."}
        role="alertdialog"
        size="sm"
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={busy !== null}
            onClick={() => {
              const model = deleting!;
              setDeleting(null);
              void run(model.id, () => localDetectorApi.remove(model.id), { title: "Model deleted", description: `${model.name} is gone.` });
            }}
          >
            Delete
          </Button>
        </div>
      </Dialog>
    </div>
  );
}

const inputClass = (error: string | undefined) =>
  `block w-full rounded-md border bg-ink-900 px-3 py-2 text-sm text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none ${error ? "border-red-500" : "border-ink-700"}`;

function FieldRow({ id, label, error, hint, children }: { id: string; label: string; error: string | undefined; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        {label}
      </label>
      {children}
      {hint ? <p className="text-xs text-slate-400">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm break-words text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function UploadForm({ onUploaded }: { onUploaded: () => Promise<void> }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [labels, setLabels] = useState("");
  const [progress, setProgress] = useState<string | null>(null);
  const labelCount = labels.split("\n").filter((line) => line.trim()).length;

  const describedBy = (name: FieldName) => (errors[name] ? `${FIELD_IDS[name]}-error` : undefined);
  const invalid = (name: FieldName) => (errors[name] ? true : undefined);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("file");
    if (file instanceof File && file.size > MAX_DETECTOR_MODEL_BYTES) {
      setErrors({ file: `The file is ${megabytes(file.size)}; at most ${megabytes(MAX_DETECTOR_MODEL_BYTES)} are accepted.` });
      return;
    }
    setErrors({});
    setProgress("Uploading…");
    try {
      const model = await localDetectorApi.upload(form, (sent) => setProgress(sent < 1 ? `Uploading… ${Math.floor(sent * 100)} %` : "Checking the model…"));
      formRef.current?.reset();
      setLabels("");
      toast({ title: "Model uploaded", description: `${model.name} passed the check${model.active ? " and is now the studios' detector" : ""}.` });
      await onUploaded();
    } catch (error) {
      const fields = problemFieldErrors(error);
      const shown: FieldErrors = {};
      for (const name of ["name", "format", "pixelScaling", "labels", "file"] as const) if (fields[name]?.[0]) shown[name] = fields[name][0];
      if (Object.keys(shown).length) setErrors(shown);
      else toast({ title: "Upload failed", description: errorDetail(error, "Try again in a moment."), variant: "destructive" });
    } finally {
      setProgress(null);
    }
  };

  return (
    <section aria-labelledby="upload-model" className="rounded-lg border border-ink-700 bg-ink-900 p-4">
      <h2 id="upload-model" className="text-lg font-semibold text-white">
        Upload a model
      </h2>
      <div className="mt-2 space-y-1 text-sm text-slate-300">
        <p>An ONNX object detector that every studio then runs in the browser. It must have:</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>one input, the picture: float32 [1, 3, height, width] (or [1, height, width, 3]);</li>
          <li>
            YOLO: one output, [1, 4 + labels, boxes] (YOLOv8, YOLO11), [1, boxes, 5 + labels] (YOLOv5, YOLOv7) or [1, boxes, 6] (NMS built in); DETR family: logits [1, queries,
            labels] or [1, queries, labels + 1] and boxes [1, queries, 4];
          </li>
          <li>its class names as labels, in the order of its class ids.</li>
        </ul>
        <p>The server opens and runs it before keeping it, and says what does not fit.</p>
      </div>
      <form ref={formRef} onSubmit={(event) => void submit(event)} noValidate className="mt-4 grid gap-4 md:grid-cols-2">
        <FieldRow id="detector-name" label="Name" error={errors.name}>
          <input id="detector-name" name="name" maxLength={80} aria-invalid={invalid("name")} aria-describedby={describedBy("name")} className={inputClass(errors.name)} />
        </FieldRow>
        <FieldRow id="detector-file" label="Model file (.onnx)" error={errors.file} hint={`At most ${megabytes(MAX_DETECTOR_MODEL_BYTES)}.`}>
          <input
            id="detector-file"
            name="file"
            type="file"
            accept=".onnx"
            aria-invalid={invalid("file")}
            aria-describedby={describedBy("file")}
            className={`${inputClass(errors.file)} file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-2 file:py-1 file:text-slate-100`}
          />
        </FieldRow>
        <FieldRow id="detector-format" label="Format" error={errors.format}>
          <select
            id="detector-format"
            name="format"
            defaultValue="yolo"
            aria-invalid={invalid("format")}
            aria-describedby={describedBy("format")}
            className={inputClass(errors.format)}
          >
            <option value="yolo">YOLO (Ultralytics export)</option>
            <option value="detr">DETR family (DETR, RT-DETR)</option>
          </select>
        </FieldRow>
        <FieldRow id="detector-pixel-scaling" label="Pixel scaling" error={errors.pixelScaling}>
          <select
            id="detector-pixel-scaling"
            name="pixelScaling"
            defaultValue="unit"
            aria-invalid={invalid("pixelScaling")}
            aria-describedby={describedBy("pixelScaling")}
            className={inputClass(errors.pixelScaling)}
          >
            <option value="unit">0 to 1 (YOLO, RT-DETR)</option>
            <option value="imagenet">ImageNet mean and deviation (DETR)</option>
          </select>
        </FieldRow>
        <div className="md:col-span-2">
          <FieldRow id="detector-labels" label="Labels" error={errors.labels} hint={`One per line, in class-id order${labelCount ? ` · ${labelCount} labels` : ""}.`}>
            <textarea
              id="detector-labels"
              name="labels"
              rows={6}
              value={labels}
              onChange={(event) => setLabels(event.target.value)}
              aria-invalid={invalid("labels")}
              aria-describedby={describedBy("labels")}
              className={inputClass(errors.labels)}
            />
          </FieldRow>
          <Button variant="ghost" className="mt-2" onClick={() => setLabels(COCO_LABELS.join("\n"))}>
            Fill in COCO&apos;s 80 classes
          </Button>
        </div>
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <Button type="submit" disabled={progress !== null}>
            Upload and check
          </Button>
          {progress ? (
            <span role="status" className="text-sm text-slate-300">
              {progress}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
