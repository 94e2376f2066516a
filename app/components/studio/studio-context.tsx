// Hands the one Studio (see createStudio) to every studio component, and subscribes components to its stores
// and commands.
import { createContext, useContext, useSyncExternalStore } from "react";
import type { AiEngine } from "../../studio/ai/ai-engine";
import type { Store } from "../../studio/store";
import type { Studio } from "../../studio/studio";

export const StudioContext = createContext<Studio | null>(null);

export function useStudio(): Studio {
  const studio = useContext(StudioContext);
  if (!studio) throw new Error("useStudio must be used inside the studio");
  return studio;
}

export function useAi(): AiEngine {
  return useStudio().ai;
}

/** Re-renders only when the selected slice changes (compare by identity). */
export function useStore<T extends object, S>(store: Store<T>, select: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.get()),
  );
}

/** A registered command with its current enabled and pressed state, and a way to run it. */
export function useCommand(id: string) {
  const studio = useStudio();
  const { commands } = studio;
  const command = commands.get(id);
  const enabled = useSyncExternalStore(
    studio.subscribe,
    () => commands.isEnabled(id),
    () => commands.isEnabled(id),
  );
  const pressed = useSyncExternalStore(
    studio.subscribe,
    () => commands.isPressed(id),
    () => commands.isPressed(id),
  );
  return { command, enabled, pressed, run: () => commands.run(id), release: () => commands.release(id) };
}
