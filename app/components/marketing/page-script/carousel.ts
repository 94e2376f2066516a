// The use-case carousel: advances every 5 s and loops; a dot jumps to its slide and gives it its full 5 s;
// the play/pause button overrides the default, which is playing unless the visitor prefers less motion.
import { SLIDE_CAPTION, SLIDE_DOT, SLIDE_IMAGE, slideCounter, slideshowLabel } from "../view-states";
import { all, one, onReducedMotionChange, prefersReducedMotion, setClasses } from "./dom";

export function enhanceCarousel(region: HTMLElement): void {
  const interval = Number(region.dataset.carousel);
  const images = all<HTMLImageElement>(region, "[data-slide-image]");
  const captions = all(region, "[data-slide]");
  const dots = all(region, "[data-slide-dot]");
  const counter = one(region, "[data-slide-counter]");
  const live = one(region, "[data-slide-captions]");
  const toggle = one(region, "[data-slide-toggle]");
  const pauseIcon = one(toggle, "[data-when-playing]");
  const playIcon = one(toggle, "[data-when-paused]");

  let active = 0;
  let choice: "play" | "pause" | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const playing = () => (choice ? choice === "play" : !prefersReducedMotion());

  const render = () => {
    images.forEach((image, index) => {
      const on = index === active;
      image.alt = on ? (image.dataset.alt ?? "") : "";
      if (on) image.removeAttribute("aria-hidden");
      else image.setAttribute("aria-hidden", "true");
      setClasses(image, SLIDE_IMAGE, on);
    });
    captions.forEach((caption, index) => {
      const on = index === active;
      caption.dataset.active = String(on);
      caption.inert = !on;
      setClasses(caption, SLIDE_CAPTION, on);
    });
    dots.forEach((dot, index) => {
      const on = index === active;
      if (on) dot.setAttribute("aria-current", "true");
      else dot.removeAttribute("aria-current");
      if (dot.firstElementChild) setClasses(dot.firstElementChild, SLIDE_DOT, on);
    });
    counter.textContent = slideCounter(active, captions.length);

    const play = playing();
    // Announce slide changes only when the visitor makes them, not on every automatic advance.
    live.setAttribute("aria-live", play ? "off" : "polite");
    toggle.setAttribute("aria-label", slideshowLabel(play));
    pauseIcon.toggleAttribute("hidden", !play);
    playIcon.toggleAttribute("hidden", play);

    // Restarted on every change, so a chosen slide gets its full interval.
    clearTimeout(timer);
    if (play) timer = setTimeout(() => show((active + 1) % captions.length), interval);
  };
  const show = (index: number) => {
    active = index;
    render();
  };

  dots.forEach((dot, index) => dot.addEventListener("click", () => index !== active && show(index)));
  toggle.addEventListener("click", () => {
    choice = playing() ? "pause" : "play";
    render();
  });
  onReducedMotionChange(() => choice === null && render());
  render();
}
