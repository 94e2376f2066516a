// The left sidebar: the camera list and the Add Camera menu.
import { AddCameraMenu } from "./add-camera-menu";
import { CameraCard } from "./camera-card";
import { useStudio, useStore } from "./studio-context";

export function CameraList() {
  const studio = useStudio();
  const cameras = useStore(studio.cameras.store, (s) => s.cameras);
  const selectedId = useStore(studio.cameras.store, (s) => s.selectedCameraId);
  const loading = useStore(studio.cameras.store, (s) => s.camerasLoading);
  if (loading) return <p className="px-1 text-sm text-slate-400">Loading cameras...</p>;
  if (cameras.length === 0) return <p className="px-1 text-sm text-slate-400">No cameras added yet</p>;
  return (
    <ul className="space-y-2" aria-label="Cameras">
      {cameras.map((camera) => (
        <CameraCard key={camera.id} camera={camera} selected={camera.id === selectedId} />
      ))}
    </ul>
  );
}

export function CameraSidebar() {
  return (
    <aside className="hidden w-72 shrink-0 flex-col gap-3 overflow-y-auto border-r border-ink-700 bg-ink-900/60 p-3 lg:flex" aria-label="Camera list">
      <AddCameraMenu />
      <CameraList />
    </aside>
  );
}
