// Commands as data: hotkeys run their command (never while typing in a field, never when it is disabled),
// press-and-hold commands release on key up, and the help list is drawn from the commands.
import { describe, expect, it, vi } from "vitest";
import { CommandRegistry, isTypingTarget } from "./commands";

const key = (k: string, target: unknown = { tagName: "BODY" }, extra: Partial<KeyboardEvent> = {}) =>
  ({ key: k, target, repeat: false, ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, preventDefault: vi.fn(), ...extra }) as unknown as KeyboardEvent;

describe("CommandRegistry", () => {
  it("runs the command bound to a key, once per press, and its release on key up", () => {
    const registry = new CommandRegistry({});
    const perform = vi.fn();
    const release = vi.fn();
    registry.register({ id: "ptz.move.left", label: "Move left", hotkeys: ["ArrowLeft"], perform, release });
    expect(registry.handleKeyDown(key("ArrowLeft"))).toBe(true);
    expect(registry.handleKeyDown(key("ArrowLeft", undefined, { repeat: true }))).toBe(true);
    expect(perform).toHaveBeenCalledTimes(1);
    registry.handleKeyUp(key("ArrowLeft"));
    expect(release).toHaveBeenCalledTimes(1);
  });

  it("releases a held command on key up even when it was disabled meanwhile", () => {
    const context = { connected: true };
    const registry = new CommandRegistry(context);
    const release = vi.fn();
    registry.register({ id: "ptz.zoom.in", label: "Zoom in", hotkeys: ["+"], enabled: (c) => c.connected, perform: () => {}, release });
    registry.handleKeyDown(key("+"));
    context.connected = false;
    registry.handleKeyUp(key("+"));
    expect(release).toHaveBeenCalledTimes(1);
  });

  it("ignores keys typed into text fields and keys with modifiers", () => {
    const registry = new CommandRegistry({});
    const perform = vi.fn();
    registry.register({ id: "fullscreen", label: "Fullscreen", hotkeys: ["f", "F"], perform });
    expect(registry.handleKeyDown(key("f", { tagName: "INPUT", type: "text" }))).toBe(false);
    expect(registry.handleKeyDown(key("f", { tagName: "TEXTAREA" }))).toBe(false);
    expect(registry.handleKeyDown(key("f", { tagName: "DIV", isContentEditable: true }))).toBe(false);
    expect(registry.handleKeyDown(key("f", undefined, { ctrlKey: true }))).toBe(false);
    expect(perform).not.toHaveBeenCalled();
    expect(registry.handleKeyDown(key("F", { tagName: "INPUT", type: "checkbox" }))).toBe(true);
    expect(perform).toHaveBeenCalledTimes(1);
  });

  it("hands its context to enabled, pressed and perform, and runs nothing disabled (by hotkey or by id)", () => {
    const context = { busy: false, on: false };
    const registry = new CommandRegistry(context);
    registry.register({
      id: "capture",
      label: "Capture",
      hotkeys: ["c"],
      enabled: (c) => !c.busy,
      pressed: (c) => c.on,
      perform: (c) => void (c.on = !c.on),
    });
    expect(registry.run("capture")).toBe(true);
    expect(registry.isPressed("capture")).toBe(true);
    context.busy = true;
    expect(registry.isEnabled("capture")).toBe(false);
    expect(registry.run("capture")).toBe(false);
    const event = key("c");
    expect(registry.handleKeyDown(event)).toBe(false);
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(context.on).toBe(true);
  });

  it("lists each shortcut once, in registration order", () => {
    const registry = new CommandRegistry({});
    const perform = () => {};
    registry.register({ id: "fullscreen", label: "Fullscreen", hotkeys: ["f"], shortcut: { keys: "F", description: "Toggle fullscreen" }, perform });
    registry.register({ id: "grid", label: "Rule of thirds", perform });
    registry.register({ id: "up", label: "Move up", hotkeys: ["ArrowUp"], shortcut: { keys: "Arrow keys", description: "Move camera (PTZ)" }, perform });
    registry.register({ id: "down", label: "Move down", hotkeys: ["ArrowDown"], shortcut: { keys: "Arrow keys", description: "Move camera (PTZ)" }, perform });
    expect(registry.shortcuts()).toEqual([
      { keys: "F", description: "Toggle fullscreen" },
      { keys: "Arrow keys", description: "Move camera (PTZ)" },
    ]);
  });

  it("unregisters only its own command", () => {
    const registry = new CommandRegistry({});
    const first = vi.fn();
    const second = vi.fn();
    const off = registry.register({ id: "help", label: "Help", hotkeys: ["?"], perform: first });
    registry.register({ id: "help", label: "Help", hotkeys: ["?"], perform: second });
    off();
    registry.run("help");
    expect(second).toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
  });
});

describe("isTypingTarget", () => {
  it("treats text-like inputs as typing and buttons as not", () => {
    expect(isTypingTarget({ tagName: "INPUT", type: "search" } as unknown as EventTarget)).toBe(true);
    expect(isTypingTarget({ tagName: "INPUT", type: "range" } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget({ tagName: "BUTTON" } as unknown as EventTarget)).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
