// Small DOM helpers the page script's widgets share.
import type { ClassPair } from "../view-states";

const tokens = (classes: string) => classes.split(" ").filter(Boolean);

/** Puts an element in the on or off state of a class pair (removing the other state's classes first). */
export function setClasses(element: Element, pair: ClassPair, on: boolean): void {
  element.classList.remove(...tokens(on ? pair[1] : pair[0]));
  element.classList.add(...tokens(on ? pair[0] : pair[1]));
}

/** Replaces whichever of `choices` an element has with `chosen` (e.g. the colour of a status dot). */
export function setOneOf(element: Element, choices: readonly string[], chosen: string): void {
  element.classList.remove(...choices.flatMap(tokens));
  element.classList.add(...tokens(chosen));
}

export function all<T extends Element = HTMLElement>(root: ParentNode, selector: string): T[] {
  return [...root.querySelectorAll<T>(selector)];
}

/** The element a widget cannot work without: a missing one is a bug in the markup, so say which. */
export function one<T extends Element = HTMLElement>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (!element) throw new Error(`page script: ${selector} is missing`);
  return element;
}

let reducedMotionQuery: MediaQueryList | undefined;
const reducedMotionMedia = () => (reducedMotionQuery ??= window.matchMedia("(prefers-reduced-motion: reduce)"));

/** True when the visitor asked the system for less motion: animations then show their end state at once. */
export function prefersReducedMotion(): boolean {
  return reducedMotionMedia().matches;
}

/** Calls back whenever the visitor changes the reduced-motion preference while the page is open. */
export function onReducedMotionChange(listener: (reduced: boolean) => void): void {
  reducedMotionMedia().addEventListener("change", (event) => listener(event.matches));
}

/** Calls back once, the first time at least `threshold` of the element is visible: the animations play once. */
export function whenInView(element: Element, threshold: number, callback: () => void): void {
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting && entry.intersectionRatio >= threshold)) return;
      observer.disconnect();
      callback();
    },
    { threshold },
  );
  observer.observe(element);
}
