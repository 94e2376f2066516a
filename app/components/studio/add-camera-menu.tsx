// "Add Camera" dropdown: a webcam (through the two webcam dialogs), a network camera, or a photo used as a camera.
import * as Dropdown from "@radix-ui/react-dropdown-menu";
import { useRef, useState } from "react";
import { PlusIcon } from "../ui/icons";
import { IpCameraDialog } from "./ip-camera-dialog";
import { AddWebcamDialog } from "./webcam-dialogs";
import { useStudio } from "./studio-context";

export function AddCameraMenu({ className = "" }: { className?: string }) {
  const studio = useStudio();
  const [webcamOpen, setWebcamOpen] = useState(false);
  const [ipOpen, setIpOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const itemClass = "cursor-pointer rounded px-3 py-2 text-sm text-slate-200 outline-none data-[highlighted]:bg-ink-700";
  return (
    <>
      <Dropdown.Root>
        <Dropdown.Trigger asChild>
          <button
            type="button"
            className={`inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand-500 px-3 py-2 text-sm font-medium text-white hover:bg-brand-600 ${className}`}
          >
            <PlusIcon /> Add Camera
          </button>
        </Dropdown.Trigger>
        <Dropdown.Portal>
          <Dropdown.Content sideOffset={4} align="start" className="z-50 min-w-48 rounded-md border border-ink-700 bg-ink-800 p-1 shadow-xl">
            <Dropdown.Item className={itemClass} onSelect={() => setWebcamOpen(true)}>
              Add Camera
            </Dropdown.Item>
            <Dropdown.Item className={itemClass} onSelect={() => setIpOpen(true)}>
              Add IP Camera
            </Dropdown.Item>
            <Dropdown.Item className={itemClass} onSelect={() => fileInput.current?.click()}>
              Add Photo
            </Dropdown.Item>
          </Dropdown.Content>
        </Dropdown.Portal>
      </Dropdown.Root>
      <input
        ref={fileInput}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        className="hidden"
        data-testid="add-photo-input"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) void studio.cameras.addPhotoCamera(file);
        }}
      />
      <AddWebcamDialog open={webcamOpen} onOpenChange={setWebcamOpen} />
      <IpCameraDialog open={ipOpen} onOpenChange={setIpOpen} />
    </>
  );
}
