// Becomes true once the element is at least `threshold` visible, and stays true: the home page's animations
// play once, so the observer disconnects after the first sighting.
import { useEffect, useRef, useState, type RefObject } from "react";

export function useInView<T extends Element>(threshold: number): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [inView, setInView] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || inView) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= threshold)) {
          setInView(true);
          observer.disconnect();
        }
      },
      { threshold },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [threshold, inView]);
  return [ref, inView];
}
