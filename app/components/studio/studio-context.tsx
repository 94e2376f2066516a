// Hands the one StudioEngine to every studio component, and subscribes components to its stores.
import { createContext, useContext, useSyncExternalStore } from "react";
import type { AiEngine } from "../../studio/ai/ai-engine";
import type { Store } from "../../studio/store";
import type { StudioEngine } from "../../studio/studio-engine";

export const StudioContext = createContext<StudioEngine | null>(null);

export function useEngine(): StudioEngine {
  const engine = useContext(StudioContext);
  if (!engine) throw new Error("useEngine must be used inside the studio");
  return engine;
}

export const AiContext = createContext<AiEngine | null>(null);

export function useAi(): AiEngine {
  const ai = useContext(AiContext);
  if (!ai) throw new Error("useAi must be used inside the studio");
  return ai;
}

/** Re-renders only when the selected slice changes (compare by identity). */
export function useStore<T extends object, S>(store: Store<T>, select: (state: T) => S): S {
  return useSyncExternalStore(
    store.subscribe,
    () => select(store.get()),
    () => select(store.get()),
  );
}
