// Add Webcam (what it does, and where IP cameras go) → Select Webcam (the video inputs to choose from).
import { useEffect, useState } from "react";
import { cameraErrorMessage } from "../../studio/cameras/camera-errors";
import { listWebcams } from "../../studio/cameras/webcam";
import type { WebcamDevice } from "../../studio/cameras/webcam-types";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { useStudio } from "./studio-context";

export function AddWebcamDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [selecting, setSelecting] = useState(false);
  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange} title="Add Webcam" description="Preview a webcam connected to this computer.">
        <p className="text-sm text-slate-300">
          The webcam's live picture appears in the preview and can be captured and analysed. A network (IP) camera is added with Add IP Camera instead; a pan-tilt-zoom camera whose
          video reaches this device as a webcam is controlled with PTZ connection (in Settings on a computer, under PTZ on a phone).
        </p>
        <div className="mt-5 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              onOpenChange(false);
              setSelecting(true);
            }}
          >
            Select Webcam
          </Button>
        </div>
      </Dialog>
      <SelectWebcamDialog open={selecting} onOpenChange={setSelecting} />
    </>
  );
}

type ListState = { kind: "loading" } | { kind: "error"; message: string } | { kind: "ready"; devices: WebcamDevice[] };

function SelectWebcamDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const studio = useStudio();
  const [state, setState] = useState<ListState>({ kind: "loading" });
  const [adding, setAdding] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    let current = true;
    setState({ kind: "loading" });
    listWebcams().then(
      (devices) => current && setState({ kind: "ready", devices }),
      (error: unknown) => current && setState({ kind: "error", message: cameraErrorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [open]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Select Webcam" description="Choose the camera to add.">
      {state.kind === "loading" ? <p className="text-sm text-slate-400">Looking for webcams...</p> : null}
      {state.kind === "error" ? (
        <p role="alert" className="text-sm text-red-300">
          {state.message}
        </p>
      ) : null}
      {state.kind === "ready" && state.devices.length === 0 ? <p className="text-sm text-slate-400">No webcams found</p> : null}
      {state.kind === "ready" && state.devices.length > 0 ? (
        <ul className="space-y-2">
          {state.devices.map((device) => (
            <li key={device.deviceId}>
              <button
                type="button"
                disabled={adding !== null}
                onClick={async () => {
                  setAdding(device.deviceId);
                  const camera = await studio.cameras.addWebcam(device);
                  setAdding(null);
                  if (camera) onOpenChange(false);
                }}
                className="w-full rounded-md border border-ink-700 bg-ink-800 px-3 py-2 text-left text-sm hover:border-brand-400 disabled:opacity-60"
              >
                {device.label}
                {adding === device.deviceId ? <span className="ml-2 text-slate-400">Connecting...</span> : null}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-5 flex justify-end">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
      </div>
    </Dialog>
  );
}
