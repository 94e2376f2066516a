// The PTZ panel's commands (data, see ../commands): the 8-direction joystick with home, zoom and focus. Moves,
// zoom and focus are press-and-hold (perform on press, release on release); the arrow keys and + / − hold them too.
import type { PtzDirection } from "../../schemas/ptz";
import type { Command } from "../commands";
import type { HeldAction, PtzController } from "./ptz-controller";

type PtzContext = { ptz: PtzController };
type Direction = Exclude<PtzDirection, "home">;

const ARROW_KEYS: Partial<Record<Direction, string>> = { up: "ArrowUp", down: "ArrowDown", left: "ArrowLeft", right: "ArrowRight" };
const GLYPHS: Record<Direction, string> = {
  "up-left": "↖",
  up: "↑",
  "up-right": "↗",
  left: "←",
  right: "→",
  "down-left": "↙",
  down: "↓",
  "down-right": "↘",
};

/** The joystick's order, row by row (home in the middle). */
export const JOYSTICK: Array<Direction | "home"> = ["up-left", "up", "up-right", "left", "home", "right", "down-left", "down", "down-right"];

export const ptzCommandId = (action: HeldAction | { kind: "home" }): string => (action.kind === "home" ? "ptz.home" : `ptz.${action.kind}.${action.direction}`);

function held(action: HeldAction, label: string, glyph: string, extra: Partial<Command<PtzContext>> = {}): Command<PtzContext> {
  return {
    id: ptzCommandId(action),
    label,
    icon: { glyph },
    pressed: ({ ptz }) => {
      const now = ptz.store.get().held;
      return now?.kind === action.kind && now.direction === action.direction;
    },
    perform: ({ ptz }) => ptz.press(action),
    release: ({ ptz }) => ptz.release(),
    ...extra,
  };
}

const ZOOM_SHORTCUT = { keys: "+ / -", description: "Zoom in / out" };

export const ptzCommands: Command<PtzContext>[] = [
  ...JOYSTICK.map((direction): Command<PtzContext> =>
    direction === "home"
      ? { id: ptzCommandId({ kind: "home" }), label: "Home", icon: { glyph: "⌂" }, perform: ({ ptz }) => ptz.home() }
      : held(
          { kind: "move", direction },
          `Move ${direction.replace("-", " ")}`,
          GLYPHS[direction],
          ARROW_KEYS[direction] ? { hotkeys: [ARROW_KEYS[direction]], shortcut: { keys: "Arrow keys", description: "Move camera (PTZ)" } } : {},
        ),
  ),
  held({ kind: "zoom", direction: "out" }, "Zoom out", "−", { hotkeys: ["-", "_"], shortcut: ZOOM_SHORTCUT }),
  held({ kind: "zoom", direction: "in" }, "Zoom in", "+", { hotkeys: ["+", "="], shortcut: ZOOM_SHORTCUT }),
  held({ kind: "focus", direction: "near" }, "Focus near", "−"),
  held({ kind: "focus", direction: "far" }, "Focus far", "+"),
];
