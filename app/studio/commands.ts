// One registry of studio actions, shared by buttons, hotkeys and menus.
export interface Command {
  id: string;
  label: string;
  /** KeyboardEvent.key values that trigger it (case-sensitive: "F" and "f" are both listed where meant). */
  keys: string[];
  run: (event?: KeyboardEvent) => void;
  /** Called on key release, for press-and-hold actions (PTZ moves). */
  release?: () => void;
}

export class CommandRegistry {
  private commands = new Map<string, Command>();

  register(command: Command): () => void {
    this.commands.set(command.id, command);
    return () => {
      if (this.commands.get(command.id) === command) this.commands.delete(command.id);
    };
  }

  run(id: string): void {
    this.commands.get(id)?.run();
  }

  private find(key: string): Command | undefined {
    for (const command of this.commands.values()) if (command.keys.includes(key)) return command;
    return undefined;
  }

  /** Handles a keydown; returns true when a command ran. Ignored while typing in a field. */
  handleKeyDown(event: KeyboardEvent): boolean {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTypingTarget(event.target)) return false;
    const command = this.find(event.key);
    if (!command) return false;
    event.preventDefault();
    if (!event.repeat) command.run(event);
    return true;
  }

  handleKeyUp(event: KeyboardEvent): void {
    if (isTypingTarget(event.target)) return;
    this.find(event.key)?.release?.();
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
