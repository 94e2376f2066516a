// Add IP Camera (and Edit connection): a name, then a stream URL or a host with credentials from which the
// server finds the stream; the server's field errors show under the fields, anything else as a toast. A URL
// pasted or typed into Host switches to Stream URL (with a note saying so) rather than being refused as a host.
import { useEffect, useId, useState } from "react";
import { errorDetail, problemFieldErrors } from "../../lib/api/errors";
import type { Camera } from "../../schemas/cameras";
import type { IpCameraAddress } from "../../studio/cameras/cameras";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field } from "../ui/field";
import { toast } from "../ui/toast-store";
import { useStudio } from "./studio-context";

type Mode = "host" | "url";

/** rtsp://…, http://…: a URL, not a host name (a host never holds "://"). */
const looksLikeUrl = (text: string) => /^\s*[a-z][a-z0-9+.-]*:\/\//i.test(text);
type Errors = Partial<Record<"name" | "host" | "streamUrl" | "username" | "password", string[]>>;

/** `camera` set: edits that camera's connection (no name); otherwise adds a camera. */
export function IpCameraDialog({ open, onOpenChange, camera }: { open: boolean; onOpenChange: (open: boolean) => void; camera?: Camera }) {
  const studio = useStudio();
  const id = useId();
  const [mode, setMode] = useState<Mode>("host");
  const [name, setName] = useState("");
  const [host, setHost] = useState("");
  const [streamUrl, setStreamUrl] = useState("");
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  // Set when a URL typed into Host moved the dialog to Stream URL: the note says so and the URL field takes the focus.
  const [movedFromHost, setMovedFromHost] = useState(false);

  // Reset when opened; not when the camera object is replaced meanwhile (a new thumbnail), which would wipe the typing.
  const savedHost = camera?.ip?.host ?? "";
  useEffect(() => {
    if (!open) return;
    setMode("host");
    setName("");
    setHost(savedHost);
    setStreamUrl("");
    setUsername("");
    setPassword("");
    setErrors({});
    setMovedFromHost(false);
  }, [open, savedHost]);

  function changeHost(value: string) {
    if (!looksLikeUrl(value)) return setHost(value);
    setMode("url");
    setStreamUrl(value.trim());
    setMovedFromHost(true);
    setErrors((current) => ({ ...current, host: undefined }));
  }

  async function submit() {
    const local: Errors = {};
    if (!camera && !name.trim()) local.name = ["Name is required"];
    if (mode === "host" && !host.trim()) local.host = ["Enter the camera's IP address or host name"];
    if (mode === "url" && !streamUrl.trim()) local.streamUrl = ["Enter the camera's stream URL"];
    setErrors(local);
    if (Object.keys(local).length) return;
    const address: IpCameraAddress = mode === "url" ? { streamUrl: streamUrl.trim() } : { host: host.trim(), username: username.trim(), password };
    setPending(true);
    try {
      if (camera) await studio.cameras.updateIpCamera(camera.id, address);
      else await studio.cameras.addIpCamera({ name: name.trim(), ...address });
      onOpenChange(false);
    } catch (error) {
      const fields = problemFieldErrors(error) as Errors;
      const shown = (["name", "host", "streamUrl", "username", "password"] as const).filter(
        (key) => fields[key]?.length && (key !== "host" || mode === "host") && (key !== "streamUrl" || mode === "url"),
      );
      setErrors(Object.fromEntries(shown.map((key) => [key, fields[key]])));
      if (!shown.length)
        toast({ title: camera ? "Could not update the camera" : "Could not add the camera", description: errorDetail(error, "Please try again."), variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  const radio = (value: Mode, label: string) => (
    <label className="flex items-center gap-2 text-sm text-slate-200">
      <input
        type="radio"
        name={`${id}-mode`}
        checked={mode === value}
        onChange={() => {
          setMode(value);
          setMovedFromHost(false);
        }}
      />
      {label}
    </label>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !pending && onOpenChange(next)}
      title={camera ? "Edit connection" : "Add IP Camera"}
      description="A network camera (RTSP, ONVIF, PTZOptics): the server pulls its stream for the preview, captures and AI."
    >
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {camera ? null : <Field id={`${id}-name`} label="Name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} errors={errors.name} autoComplete="off" />}
        <div className="flex gap-4" role="radiogroup" aria-label="Connect by">
          {radio("host", "Host")}
          {radio("url", "Stream URL")}
        </div>
        {mode === "host" ? (
          <>
            <Field
              id={`${id}-host`}
              label="Host"
              placeholder="192.168.1.50, camera.local, or paste rtsp://…"
              value={host}
              onChange={(e) => changeHost(e.target.value)}
              errors={errors.host}
              autoComplete="off"
            />
            <Field
              id={`${id}-user`}
              label="Username"
              placeholder="admin (when blank)"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              errors={errors.username}
              autoComplete="off"
            />
            <Field
              id={`${id}-password`}
              label="Password"
              type="password"
              placeholder="admin (when blank)"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              errors={errors.password}
              autoComplete="new-password"
            />
          </>
        ) : (
          <Field
            id={`${id}-url`}
            autoFocus={movedFromHost}
            // Typing goes on where it was: the caret at the end of what moved over from Host.
            onFocus={(e) => movedFromHost && e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
            label="Stream URL"
            placeholder="rtsp://user:password@192.168.1.50:554/1"
            value={streamUrl}
            onChange={(e) => setStreamUrl(e.target.value)}
            errors={errors.streamUrl}
            autoComplete="off"
          />
        )}
        {mode === "url" && movedFromHost ? (
          <p className="text-brand-300 text-xs" role="status" data-testid="moved-to-url">
            That is a stream URL: switched to Stream URL.
          </p>
        ) : null}
        {mode === "url" ? <p className="text-xs text-slate-400">rtsp://, rtsps://, or an http(s) MJPEG or snapshot URL. Credentials in the URL are stored encrypted.</p> : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" disabled={pending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} aria-busy={pending}>
            {pending ? (camera ? "Saving…" : "Adding…") : camera ? "Save" : "Add"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
