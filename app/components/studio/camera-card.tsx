// A camera in the sidebar: thumbnail, name (renamable), model (an IP camera: its host and stream path), status dot
// with an IP camera's state (idle, or unreachable with the reason), transcoding note and PTZ, and whether the server
// watches it with local vision; selecting it shows its picture.
import { useRef, useState } from "react";
import type { Camera } from "../../schemas/cameras";
import { CheckIcon, PencilIcon, TrashIcon } from "../ui/icons";
import { IpCameraDialog } from "./ip-camera-dialog";
import { useStudio, useStore } from "./studio-context";
import { WatchDialog } from "./watch-dialog";
import { watchLines } from "./watch-text";

/** What the user can do about an offline reason, on hover and for screen readers. */
const REASON_HINTS: Record<string, string> = {
  "no ffmpeg": "The server has no usable ffmpeg: install ffmpeg or set FFMPEG_PATH, then restart it",
  "authentication failed": "The camera refused the user name or password: use Edit connection",
  unreachable: "Nothing answered at this address: check the camera's power, network and port",
  "unsupported codec": "The camera sends video the server cannot turn into H.264",
  "stream ended": "The camera stopped sending video; the server retries",
};

/** An IP camera's failure reason in the card's words. */
const REASON_TEXTS: Record<string, string> = {
  "no ffmpeg": "the server has no ffmpeg",
  "authentication failed": "401 wrong user name or password",
  unreachable: "connection refused or no answer",
  "unsupported codec": "unsupported video codec",
  "stream ended": "no video stream",
};

/** The status line: a webcam is online or offline; an IP camera streaming, connecting, idle, or unreachable with why. */
function statusText(online: boolean, connecting: boolean, isIp: boolean, reason: string | null): string {
  if (online) return "Online";
  if (connecting) return "Connecting…";
  if (!isIp) return "Offline";
  return reason ? `Unreachable: ${REASON_TEXTS[reason] ?? reason}` : "Idle (not streaming now)";
}

export function CameraCard({ camera, selected }: { camera: Camera; selected: boolean }) {
  const studio = useStudio();
  const source = useStore(studio.cameras.store, (s) => s.sources[camera.id]);
  const [editing, setEditing] = useState(false);
  const [editingConnection, setEditingConnection] = useState(false);
  const [editingWatch, setEditingWatch] = useState(false);
  const watch = useStore(studio.watch.store, (s) => s.watches[camera.id]);
  const watchNow = useStore(studio.watch.store, (s) => s.now);
  const [draft, setDraft] = useState(camera.name);
  // Set once the edit ends (saved or escaped), so the blur that follows does nothing.
  const closed = useRef(false);
  const ip = camera.source === "ip" ? camera.ip : null;
  // An IP camera's live socket speaks only while it is the one shown; otherwise the server's status (the roster
  // rereads it every few seconds), not the word of a view that has since let go.
  const shown = ip && !selected ? undefined : source;
  const online = shown ? shown.status === "live" : camera.status === "online";
  const offlineReason = ip ? (shown?.live ? shown.live.reason : camera.statusReason) : null;
  const connecting = shown ? shown.status === "connecting" : camera.status === "connecting";
  const transcoded = ip ? (shown?.live?.transcoded ?? ip.transcoded) : false;
  const codec = (shown?.live?.codec ?? ip?.codec ?? "").toUpperCase().replace(/^HEVC$/, "H.265");
  const watching = ip && watch ? watchLines(watch, watchNow, (reason) => REASON_TEXTS[reason] ?? reason) : null;

  const save = async () => {
    if (closed.current) return;
    closed.current = true;
    setEditing(false);
    const changed = await studio.cameras.renameCamera(camera.id, draft);
    if (!changed) setDraft(camera.name);
  };

  return (
    <li>
      <div
        className={`group relative flex gap-3 rounded-lg border p-2 transition-colors ${selected ? "border-brand-400 bg-ink-800" : "hover:border-ink-600 border-ink-700 bg-ink-900"}`}
        data-testid="camera-card"
        data-selected={selected}
      >
        <button
          type="button"
          className="absolute inset-0 rounded-lg"
          aria-label={`Select ${camera.name}`}
          aria-pressed={selected}
          onClick={() => void studio.cameras.selectCamera(camera.id)}
        />
        {/* What lies over the Select button lets clicks through to it, except its own controls. */}
        <div className="pointer-events-none relative h-14 w-20 shrink-0 overflow-hidden rounded bg-ink-950">
          {camera.thumbnailUrl ? <img src={camera.thumbnailUrl} alt="" width={80} height={56} className="h-full w-full object-cover" data-testid="camera-thumbnail" /> : null}
        </div>
        <div className="pointer-events-none relative min-w-0 flex-1">
          {editing ? (
            <form
              className="pointer-events-auto flex items-center gap-1"
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <input
                autoFocus
                aria-label="Camera name"
                value={draft}
                maxLength={100}
                onChange={(event) => setDraft(event.target.value)}
                onBlur={() => void save()}
                onKeyDown={(event) => {
                  if (event.key === "Escape") {
                    event.preventDefault();
                    closed.current = true;
                    setDraft(camera.name);
                    setEditing(false);
                  }
                }}
                className="w-full min-w-0 rounded border border-brand-400 bg-ink-950 px-1.5 py-0.5 text-sm"
              />
              <button type="submit" aria-label="Save name" className="rounded p-1 text-slate-300 hover:text-white" onMouseDown={(e) => e.preventDefault()}>
                <CheckIcon />
              </button>
            </form>
          ) : (
            <div className="flex items-center gap-1">
              <span className="truncate text-sm font-medium text-white" data-testid="camera-name">
                {camera.name}
              </span>
              <button
                type="button"
                aria-label={`Rename ${camera.name}`}
                className="pointer-events-auto relative rounded p-0.5 text-slate-400 opacity-70 group-hover:opacity-100 hover:text-white"
                onClick={() => {
                  closed.current = false;
                  setDraft(camera.name);
                  setEditing(true);
                }}
              >
                <PencilIcon />
              </button>
            </div>
          )}
          {ip ? (
            <p className="truncate text-xs text-slate-400" title={`${ip.host}${ip.path}`}>
              <span data-testid="camera-host">{ip.host}</span>
              {ip.path && ip.path !== "/" ? (
                <span className="text-slate-500" data-testid="camera-path">
                  {" · "}
                  {ip.path}
                </span>
              ) : null}
            </p>
          ) : (
            <p className="truncate text-xs text-slate-400">{camera.model || "Webcam"}</p>
          )}
          <p className="mt-1 flex items-center gap-1.5 text-xs text-slate-400" data-testid="camera-status">
            <span
              className={`inline-block h-2 w-2 shrink-0 rounded-full ${online ? "bg-emerald-400" : offlineReason && !connecting ? "bg-red-400" : "bg-slate-500"}`}
              data-testid="status-dot"
              data-online={online}
            />
            <span className="truncate" title={offlineReason ? (REASON_HINTS[offlineReason] ?? undefined) : undefined}>
              {statusText(online, connecting, ip !== null, offlineReason)}
            </span>
          </p>
          {ip?.ptzChecking ? (
            <p className="truncate text-xs text-slate-400" data-testid="camera-ptz">
              Checking PTZ…
            </p>
          ) : ip?.ptzProtocol ? (
            <p className="truncate text-xs text-slate-400" data-testid="camera-ptz">
              PTZ: {ip.ptzProtocol === "http-cgi" ? "HTTP-CGI" : ip.ptzProtocol.toUpperCase()}
            </p>
          ) : null}
          {transcoded ? (
            <p className="truncate text-xs text-sky-200" data-testid="camera-transcoding">
              Transcoding {codec || "the stream"} to H.264
            </p>
          ) : null}
          {watching ? (
            <p
              className={`text-xs ${watch?.status === "stalled" ? "text-amber-200" : watch?.status === "running" ? "text-emerald-200" : "text-slate-300"}`}
              data-testid="camera-watch"
              data-status={watch?.status}
            >
              {watching.map((line) => (
                // Wrapped, not cut: the figures are the point, and a phone's card is narrow.
                <span key={line} className="block break-words">
                  {line}
                </span>
              ))}
            </p>
          ) : null}
          {ip ? (
            <p className="flex flex-wrap gap-x-3">
              <button type="button" className="text-brand-300 pointer-events-auto relative text-xs hover:underline" onClick={() => setEditingConnection(true)}>
                Edit connection
              </button>
              <button type="button" className="text-brand-300 pointer-events-auto relative text-xs hover:underline" onClick={() => setEditingWatch(true)}>
                Watch with local vision
              </button>
            </p>
          ) : null}
          {online && source?.device && source.device.by !== "deviceId" ? (
            <p className="truncate text-xs text-amber-200" data-testid="camera-device" title={`Using ${source.device.label}`}>
              Using {source.device.label}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          aria-label={`Delete ${camera.name}`}
          className="relative self-start rounded p-1 text-slate-500 hover:bg-red-950 hover:text-red-300"
          onClick={() => {
            if (window.confirm(`Delete the camera "${camera.name}"? Its photos, stories and sessions are kept.`)) void studio.cameras.deleteCamera(camera.id);
          }}
        >
          <TrashIcon />
        </button>
      </div>
      {source?.error && selected && !ip ? (
        <p role="alert" className="mt-1 px-1 text-xs text-red-300">
          {source.error}
        </p>
      ) : null}
      {ip ? <IpCameraDialog open={editingConnection} onOpenChange={setEditingConnection} camera={camera} /> : null}
      {ip ? <WatchDialog open={editingWatch} onOpenChange={setEditingWatch} camera={camera} /> : null}
    </li>
  );
}
