// Studio commands as data (the way Excalidraw's actions work): each declares its id, label, icon, hotkeys,
// when it is enabled and what it does. Buttons, toggles, the help list and hotkeys all render from or
// dispatch through one registry; the commands themselves live in the *-commands modules beside what they drive.

/** The icons commands show; the component layer maps each name to its picture (glyphs are drawn as text). */
export type CommandIcon = "fullscreen" | "grid" | "lightbulb" | "help" | "camera" | "stop" | "switch" | { glyph: string };

export interface Command<C = unknown> {
  id: string;
  /** The visible or accessible name (button text, aria-label, switch label). */
  label: string;
  icon?: CommandIcon;
  /** KeyboardEvent.key values that trigger it (case-sensitive: "F" and "f" are both listed where meant). */
  hotkeys?: string[];
  /** Its line in the help dialog's shortcut list; commands sharing `keys` (the four arrows) share a line. */
  shortcut?: { keys: string; description: string };
  /** When it can run (default: always). A disabled command's hotkey is not taken. */
  enabled?: (context: C) => boolean;
  /** For toggles: whether it is on now (a switch's checked, a button's aria-pressed). */
  pressed?: (context: C) => boolean;
  perform: (context: C) => void;
  /** Called on release, for press-and-hold commands (PTZ moves): key up, pointer up. */
  release?: (context: C) => void;
}

export class CommandRegistry<C> {
  private commands = new Map<string, Command<C>>();

  constructor(private readonly context: C) {}

  register(command: Command<C>): () => void {
    this.commands.set(command.id, command);
    return () => {
      if (this.commands.get(command.id) === command) this.commands.delete(command.id);
    };
  }

  get(id: string): Command<C> {
    const command = this.commands.get(id);
    if (!command) throw new Error(`No studio command "${id}"`);
    return command;
  }

  list(): Command<C>[] {
    return [...this.commands.values()];
  }

  isEnabled(id: string): boolean {
    return this.get(id).enabled?.(this.context) ?? true;
  }

  isPressed(id: string): boolean {
    return this.get(id).pressed?.(this.context) ?? false;
  }

  /** Runs a command when it is enabled; returns whether it ran. */
  run(id: string): boolean {
    const command = this.commands.get(id);
    if (!command || !(command.enabled?.(this.context) ?? true)) return false;
    command.perform(this.context);
    return true;
  }

  release(id: string): void {
    this.commands.get(id)?.release?.(this.context);
  }

  /** The help dialog's list, one line per distinct `shortcut.keys`, in registration order. */
  shortcuts(): Array<{ keys: string; description: string }> {
    const seen = new Map<string, string>();
    for (const command of this.commands.values()) if (command.shortcut && !seen.has(command.shortcut.keys)) seen.set(command.shortcut.keys, command.shortcut.description);
    return [...seen].map(([keys, description]) => ({ keys, description }));
  }

  private find(key: string, { enabledOnly }: { enabledOnly: boolean }): Command<C> | undefined {
    for (const command of this.commands.values()) if (command.hotkeys?.includes(key) && (!enabledOnly || (command.enabled?.(this.context) ?? true))) return command;
    return undefined;
  }

  /** Handles a keydown; returns true when a command took it. Ignored while typing in a field. */
  handleKeyDown(event: KeyboardEvent): boolean {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return false;
    const command = this.find(event.key, { enabledOnly: true });
    if (!command) return false;
    event.preventDefault();
    if (!event.repeat) command.perform(this.context);
    return true;
  }

  /** A held command is released even if it was disabled meanwhile: a move must always end. */
  handleKeyUp(event: KeyboardEvent): void {
    if (isTypingTarget(event.target)) return;
    this.find(event.key, { enabledOnly: false })?.release?.(this.context);
  }
}

export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as HTMLElement).tagName !== "string") return false;
  const element = target as HTMLElement;
  const tag = element.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT" || element.isContentEditable) return true;
  if (tag !== "INPUT") return false;
  const type = (element as HTMLInputElement).type;
  return !["button", "checkbox", "radio", "range", "submit", "reset", "color", "file"].includes(type);
}
