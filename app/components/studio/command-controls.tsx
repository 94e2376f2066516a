// The studio's buttons and switches drawn from the command registry (app/studio/commands): each shows its
// command's label, icon and pressed state, and runs it (press-and-hold commands on press and release).
import type { KeyboardEvent, MouseEvent, PointerEvent, ReactNode } from "react";
import type { CommandIcon as Icon } from "../../studio/commands";
import { CameraIcon, FullscreenIcon, GridIcon, HelpIcon, LightbulbIcon, StopIcon } from "../ui/icons";
import { IconButton } from "../ui/icon-button";
import { ToggleRow } from "./ai/toggle-row";
import { useCommand } from "./studio-context";

const ICONS: Record<Exclude<Icon, { glyph: string }>, (() => ReactNode) | null> = {
  fullscreen: FullscreenIcon,
  grid: GridIcon,
  lightbulb: LightbulbIcon,
  help: HelpIcon,
  camera: CameraIcon,
  stop: StopIcon,
  switch: null,
};

export function CommandIcon({ icon }: { icon: Icon | undefined }) {
  if (!icon) return null;
  if (typeof icon === "object") return <>{icon.glyph}</>;
  const Picture = ICONS[icon];
  return Picture ? <Picture /> : null;
}

/** A square icon button named by its command (tooltip and aria-label). */
export function CommandIconButton({ id, className }: { id: string; className?: string }) {
  const { command, enabled, pressed, run } = useCommand(id);
  return (
    <IconButton label={command.label} className={className} pressed={command.pressed ? pressed : undefined} disabled={!enabled} onClick={() => run()}>
      <CommandIcon icon={command.icon} />
    </IconButton>
  );
}

/** An on/off switch row for a toggle command. */
export function CommandToggle({ id, hint }: { id: string; hint?: ReactNode }) {
  const { command, enabled, pressed, run } = useCommand(id);
  return <ToggleRow label={command.label} hint={hint} checked={pressed} disabled={!enabled} onChange={() => run()} />;
}

/** Press-and-hold for a command with a release: pointer capture keeps the release on this button even if the pointer slides off. */
export function useHoldCommand(id: string) {
  const { command, pressed, run, release } = useCommand(id);
  const handlers = {
    onPointerDown: (event: PointerEvent<HTMLButtonElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture?.(event.pointerId);
      run();
    },
    onPointerUp: () => release(),
    onPointerCancel: () => release(),
    onLostPointerCapture: () => release(),
    // A long press on a touch screen would open the context menu, which cancels the pointer (a stop).
    onContextMenu: (event: MouseEvent) => event.preventDefault(),
    onKeyDown: (event: KeyboardEvent) => {
      if ((event.key === " " || event.key === "Enter") && !event.repeat) {
        event.preventDefault();
        event.stopPropagation();
        run();
      }
    },
    onKeyUp: (event: KeyboardEvent) => {
      if (event.key === " " || event.key === "Enter") release();
    },
  };
  return { command, pressed, handlers, run };
}
