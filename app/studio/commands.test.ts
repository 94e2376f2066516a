// Hotkeys run their command, but never while the user is typing in a field.
import { describe, expect, it, vi } from "vitest";
import { CommandRegistry, isTypingTarget } from "./commands";

const key = (k: string, target: unknown = { tagName: "BODY" }, extra: Partial<KeyboardEvent> = {}) =>
  ({ key: k, target, repeat: false, ctrlKey: false, metaKey: false, altKey: false, defaultPrevented: false, preventDefault: vi.fn(), ...extra }) as unknown as KeyboardEvent;

describe("CommandRegistry", () => {
  it("runs the command bound to a key, once per press, and its release on key up", () => {
    const registry = new CommandRegistry();
    const run = vi.fn();
    const release = vi.fn();
    registry.register({ id: "ptz.left", label: "Move left", keys: ["ArrowLeft"], run, release });
    expect(registry.handleKeyDown(key("ArrowLeft"))).toBe(true);
    expect(registry.handleKeyDown(key("ArrowLeft", undefined, { repeat: true }))).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
    registry.handleKeyUp(key("ArrowLeft"));
    expect(release).toHaveBeenCalledTimes(1);
  });

  it("ignores keys typed into text fields and keys with modifiers", () => {
    const registry = new CommandRegistry();
    const run = vi.fn();
    registry.register({ id: "fullscreen", label: "Fullscreen", keys: ["f", "F"], run });
    expect(registry.handleKeyDown(key("f", { tagName: "INPUT", type: "text" }))).toBe(false);
    expect(registry.handleKeyDown(key("f", { tagName: "TEXTAREA" }))).toBe(false);
    expect(registry.handleKeyDown(key("f", { tagName: "DIV", isContentEditable: true }))).toBe(false);
    expect(registry.handleKeyDown(key("f", undefined, { ctrlKey: true }))).toBe(false);
    expect(run).not.toHaveBeenCalled();
    expect(registry.handleKeyDown(key("F", { tagName: "INPUT", type: "checkbox" }))).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it("unregisters only its own command", () => {
    const registry = new CommandRegistry();
    const first = vi.fn();
    const second = vi.fn();
    const off = registry.register({ id: "help", label: "Help", keys: ["?"], run: first });
    registry.register({ id: "help", label: "Help", keys: ["?"], run: second });
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
