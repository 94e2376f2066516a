// Settings → PTZ: USB or IP connection, the 8-direction joystick with home, zoom and focus, speed sliders,
// hotkeys, camera presets, then exposure controls (manual PTZ exposure, or the webcam's own controls). The
// joystick, zoom and focus buttons are the PTZ commands (app/studio/ptz-commands).
import { useId, useState } from "react";
import { PTZ_SPEED_MAX, PTZ_SPEED_MIN } from "../../schemas/ptz";
import { JOYSTICK, ptzCommandId } from "../../studio/ptz/ptz-commands";
import type { PtzController, SpeedKind } from "../../studio/ptz/ptz-controller";
import { Button } from "../ui/button";
import { TrashIcon } from "../ui/icons";
import { CommandIcon, useHoldCommand } from "./command-controls";
import { ExposureControls } from "./exposure-controls";
import { useStudio, useStore } from "./studio-context";

const input = "w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1.5 text-sm";

export function usePtz(): PtzController {
  return useStudio().ptz;
}

/** The whole PTZ panel: the desktop Settings tab and the phone's PTZ sheet (which has no keyboard, so no hotkeys). */
export function PtzPanel({ hotkeys = true }: { hotkeys?: boolean }) {
  const ptz = usePtz();
  const mode = useStore(ptz.store, (s) => s.mode);
  const headingId = useId();
  return (
    <section className="space-y-4" aria-labelledby={headingId} data-testid="ptz-panel">
      <h3 id={headingId} className="text-sm font-semibold text-white">
        PTZ connection
      </h3>
      <div className="flex gap-2" role="radiogroup" aria-label="PTZ connection type">
        {(["usb", "ip"] as const).map((m) => (
          <Button key={m} variant={mode === m ? "primary" : "secondary"} className="flex-1 px-2 py-1" role="radio" aria-checked={mode === m} onClick={() => ptz.setMode(m)}>
            {m === "usb" ? "USB" : "IP"}
          </Button>
        ))}
      </div>
      {mode === "ip" ? (
        <IpConnection ptz={ptz} />
      ) : (
        <p className="text-xs text-slate-400">The joystick drives the selected webcam's own pan, tilt and zoom when it reports them.</p>
      )}
      <Joystick />
      <SpeedSliders ptz={ptz} />
      {hotkeys ? <Hotkeys /> : null}
      {mode === "ip" ? <Presets ptz={ptz} /> : null}
      <ExposureControls ptz={ptz} />
    </section>
  );
}

function IpConnection({ ptz }: { ptz: PtzController }) {
  const connection = useStore(ptz.store, (s) => s.connection);
  const model = useStore(ptz.store, (s) => s.model);
  const connecting = useStore(ptz.store, (s) => s.connecting);
  const [form, setForm] = useState({ ip: "", port: "", username: "", password: "" });
  const studio = useStudio();
  const boundCamera = useStore(studio.cameras.store, (s) => (connection && "cameraId" in connection ? s.cameras.find((c) => c.id === connection.cameraId) : undefined));
  if (connection && "cameraId" in connection) {
    return (
      <div className="space-y-1 rounded-md border border-emerald-700/60 bg-emerald-950/30 p-3" data-testid="ptz-connected">
        <p className="text-sm text-emerald-200">
          Controlling {boundCamera?.name ?? "the selected camera"}
          {boundCamera?.ip ? ` (${boundCamera.ip.host})` : ""}
        </p>
        <p className="text-xs text-slate-400">
          {boundCamera?.ip?.ptzProtocol === "http-cgi" ? "HTTP-CGI" : (boundCamera?.ip?.ptzProtocol ?? "").toUpperCase()} · the IP camera's own PTZ
        </p>
      </div>
    );
  }
  if (connection) {
    return (
      <div className="space-y-2 rounded-md border border-emerald-700/60 bg-emerald-950/30 p-3" data-testid="ptz-connected">
        <p className="text-sm text-emerald-200">Connected to {connection.ip}</p>
        {model ? (
          <p className="text-xs text-slate-400">
            {model} · {connection.protocol === "http-cgi" ? "HTTP-CGI" : connection.protocol.toUpperCase()}
          </p>
        ) : null}
        <Button variant="secondary" className="w-full" onClick={() => ptz.disconnect()}>
          Disconnect
        </Button>
      </div>
    );
  }
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        void ptz.connect(form);
      }}
    >
      <label className="grid gap-1 text-sm text-slate-300">
        IP address
        <input className={input} value={form.ip} onChange={(e) => setForm({ ...form, ip: e.target.value })} placeholder="192.168.1.100" autoComplete="off" />
      </label>
      <label className="grid gap-1 text-sm text-slate-300">
        Port (optional)
        <input
          className={input}
          value={form.port}
          inputMode="numeric"
          onChange={(e) => setForm({ ...form, port: e.target.value.replace(/\D/g, "").slice(0, 5) })}
          placeholder="ONVIF/HTTP 80, VISCA 5678"
          autoComplete="off"
        />
      </label>
      <label className="grid gap-1 text-sm text-slate-300">
        Username
        <input className={input} value={form.username} onChange={(e) => setForm({ ...form, username: e.target.value })} placeholder="admin" autoComplete="off" />
      </label>
      <label className="grid gap-1 text-sm text-slate-300">
        Password
        <input className={input} type="password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} placeholder="admin" autoComplete="off" />
      </label>
      <Button type="submit" className="w-full" disabled={connecting}>
        {connecting ? "Connecting…" : "Connect"}
      </Button>
    </form>
  );
}

const pad = "h-11 touch-none select-none rounded-md border border-ink-700 bg-ink-800 text-lg text-slate-100 hover:bg-ink-700 aria-pressed:bg-brand-600";

/** A joystick, zoom or focus button for its PTZ command (press-and-hold, or a click for Home). */
function PtzButton({ id, className = pad }: { id: string; className?: string }) {
  const { command, pressed, handlers, run } = useHoldCommand(id);
  if (!command.release) {
    return (
      <button type="button" className={className} aria-label={command.label} onClick={() => run()}>
        <CommandIcon icon={command.icon} />
      </button>
    );
  }
  return (
    <button type="button" className={className} aria-label={command.label} aria-pressed={pressed} {...handlers}>
      <CommandIcon icon={command.icon} />
    </button>
  );
}

function Joystick() {
  return (
    <div className="space-y-3">
      <div className="mx-auto grid w-44 grid-cols-3 gap-1.5" role="group" aria-label="Pan and tilt">
        {JOYSTICK.map((direction) => {
          const id = direction === "home" ? ptzCommandId({ kind: "home" }) : ptzCommandId({ kind: "move", direction });
          return <PtzButton key={direction} id={id} />;
        })}
      </div>
      <div className="grid grid-cols-2 gap-2">
        <div className="flex items-center gap-1" role="group" aria-label="Zoom">
          <span className="w-12 text-xs text-slate-400">Zoom</span>
          <PtzButton id={ptzCommandId({ kind: "zoom", direction: "out" })} className={`${pad} flex-1`} />
          <PtzButton id={ptzCommandId({ kind: "zoom", direction: "in" })} className={`${pad} flex-1`} />
        </div>
        <div className="flex items-center gap-1" role="group" aria-label="Focus">
          <span className="w-12 text-xs text-slate-400">Focus</span>
          <PtzButton id={ptzCommandId({ kind: "focus", direction: "near" })} className={`${pad} flex-1`} />
          <PtzButton id={ptzCommandId({ kind: "focus", direction: "far" })} className={`${pad} flex-1`} />
        </div>
      </div>
    </div>
  );
}

const SPEED_LABELS: Record<SpeedKind, string> = { panTilt: "Pan/tilt speed", zoom: "Zoom speed", focus: "Focus speed" };

function SpeedSliders({ ptz }: { ptz: PtzController }) {
  const speeds = useStore(ptz.store, (s) => s.speeds);
  const [shown, setShown] = useState(speeds);
  return (
    <div className="space-y-2">
      {(Object.keys(SPEED_LABELS) as SpeedKind[]).map((kind) => (
        <label key={kind} className="grid grid-cols-[7rem_1fr_2rem] items-center gap-2 text-xs text-slate-300">
          {SPEED_LABELS[kind]}
          <input
            type="range"
            min={PTZ_SPEED_MIN}
            max={PTZ_SPEED_MAX}
            step={1}
            value={shown[kind]}
            onChange={(e) => {
              const value = Number(e.target.value);
              setShown({ ...shown, [kind]: value });
              ptz.setSpeed(kind, value);
            }}
          />
          <span className="text-right tabular-nums">{shown[kind]}</span>
        </label>
      ))}
    </div>
  );
}

function Hotkeys() {
  return (
    <div className="text-xs text-slate-400">
      <p className="font-medium text-slate-300">Hotkeys</p>
      <ul className="mt-1 grid grid-cols-2 gap-x-3">
        <li>Arrow keys: move (hold)</li>
        <li>+ / −: zoom (hold)</li>
        <li>Click the preview: move toward it</li>
        <li>?: help</li>
      </ul>
    </div>
  );
}

function Presets({ ptz }: { ptz: PtzController }) {
  const presets = useStore(ptz.store, (s) => s.presets);
  const connected = useStore(ptz.store, (s) => Boolean(s.connection));
  const [name, setName] = useState("");
  return (
    <div className="space-y-2" data-testid="ptz-presets">
      <p className="text-sm font-medium text-slate-200">Presets</p>
      <form
        className="flex gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          void ptz.savePreset(name).then(() => setName(""));
        }}
      >
        <input className={input} aria-label="Preset name" placeholder="Preset name" value={name} onChange={(e) => setName(e.target.value)} />
        <Button type="submit" variant="secondary" className="shrink-0 px-3 py-1" disabled={!connected || !name.trim()}>
          Save preset
        </Button>
      </form>
      {presets.length === 0 ? <p className="text-xs text-slate-400">No presets saved for this camera</p> : null}
      <ul className="space-y-1">
        {presets.map((preset) => (
          <li key={preset.id} className="flex items-center gap-2 text-sm">
            <Button
              variant="ghost"
              className="flex-1 justify-start px-2 py-1"
              disabled={!connected}
              onClick={() => void ptz.recallPreset(preset)}
              aria-label={`Recall ${preset.name}`}
            >
              {preset.name}
              {preset.number !== null ? <span className="text-xs text-slate-500">#{preset.number}</span> : null}
            </Button>
            <button type="button" className="rounded p-1 text-slate-400 hover:text-red-400" aria-label={`Delete ${preset.name}`} onClick={() => void ptz.deletePreset(preset)}>
              <TrashIcon />
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
