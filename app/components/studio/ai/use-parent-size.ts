// The size of an overlay's parent (the picture's rectangle), followed as it resizes, so what is drawn over the
// picture scales with it: the detection canvas and the zones-and-lines overlay share it.
import { useEffect, useState } from "react";

export function useParentSize(element: Element | null): { width: number; height: number; dpr: number } {
  const [size, setSize] = useState({ width: 0, height: 0, dpr: 1 });
  useEffect(() => {
    const parent = element?.parentElement;
    if (!element || !parent) return;
    const update = () => {
      const next = { width: parent.clientWidth, height: parent.clientHeight, dpr: window.devicePixelRatio || 1 };
      setSize((prev) => (prev.width === next.width && prev.height === next.height && prev.dpr === next.dpr ? prev : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(parent);
    return () => observer.disconnect();
  }, [element]);
  return size;
}
