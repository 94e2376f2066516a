// Home section 2: four use-case slides that loop, advance every 5 s, and jump from their dots.
import { useEffect, useState } from "react";
import { CAROUSEL_INTERVAL_MS, SLIDE_SIZE, slides } from "./content/slides";
import { PauseIcon, PlayIcon } from "./icons";
import { SectionHeading } from "./marketing-layout";
import { usePrefersReducedMotion } from "./use-media";

export function ShowcaseCarousel() {
  const [active, setActive] = useState(0);
  const [userChoice, setUserChoice] = useState<"play" | "pause" | null>(null);
  const reducedMotion = usePrefersReducedMotion();
  // Visitors who asked for less motion get a still carousel, unless they press play themselves.
  const playing = userChoice ? userChoice === "play" : !reducedMotion;

  useEffect(() => {
    if (!playing) return;
    // Restarted on every change of slide, so a dot click gives the chosen slide its full 5 s.
    const timer = setTimeout(() => setActive((index) => (index + 1) % slides.length), CAROUSEL_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [active, playing]);

  return (
    <section aria-labelledby="showcase-title" data-section="carousel" className="mx-auto max-w-6xl px-4 py-16 sm:px-6 sm:py-20">
      <SectionHeading
        id="showcase-title"
        eyebrow="See it in action"
        title="One camera, many jobs"
        lead="The same studio watches patient rooms, counts crowds, checks hard hats and tells the story of a scene."
      />
      <div
        role="region"
        aria-roledescription="carousel"
        aria-label="Use cases"
        className="mt-10 grid overflow-hidden rounded-3xl border border-ink-700 bg-ink-900 shadow-2xl shadow-black/40 lg:grid-cols-[1.75fr_1fr]"
      >
        <div className="relative aspect-[1200/750] bg-ink-800">
          {slides.map((slide, index) => (
            <img
              key={slide.image}
              src={slide.image}
              alt={index === active ? slide.alt : ""}
              aria-hidden={index === active ? undefined : true}
              width={SLIDE_SIZE.width}
              height={SLIDE_SIZE.height}
              loading={index === 0 ? "eager" : "lazy"}
              decoding="async"
              className={`absolute inset-0 h-full w-full object-cover transition-opacity duration-700 motion-reduce:transition-none ${
                index === active ? "opacity-100" : "opacity-0"
              }`}
            />
          ))}
        </div>
        <div className="flex flex-col justify-between gap-6 p-6 sm:p-8">
          <div>
            <p className="font-mono text-sm font-semibold text-brand-400" aria-hidden="true">
              {String(active + 1).padStart(2, "0")} / {String(slides.length).padStart(2, "0")}
            </p>
            {/* All captions share one grid cell, so the block is as tall as the longest and never jumps. */}
            <div className="mt-3 grid" aria-live={playing ? "off" : "polite"}>
              {slides.map((slide, index) => (
                <div
                  key={slide.title}
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${index + 1} of ${slides.length}`}
                  data-active={index === active}
                  inert={index !== active}
                  className={`[grid-area:1/1] transition-opacity duration-500 motion-reduce:transition-none ${
                    index === active ? "visible opacity-100" : "invisible opacity-0"
                  }`}
                >
                  <h3 className="text-xl font-semibold text-white sm:text-2xl">{slide.title}</h3>
                  <p className="mt-3 leading-7 text-slate-300">{slide.description}</p>
                </div>
              ))}
            </div>
          </div>
          <div className="flex items-center justify-between gap-3">
            <div className="-ml-2 flex items-center" role="group" aria-label="Choose a slide">
              {slides.map((slide, index) => (
                <button
                  key={slide.title}
                  type="button"
                  onClick={() => setActive(index)}
                  aria-label={`Show slide ${index + 1}: ${slide.title}`}
                  aria-current={index === active ? "true" : undefined}
                  className="group inline-flex h-8 min-w-8 items-center justify-center rounded-full px-2"
                >
                  <span
                    className={`block h-2.5 rounded-full transition-all motion-reduce:transition-none ${
                      index === active ? "w-8 bg-brand-400" : "w-2.5 bg-slate-500 group-hover:bg-slate-300"
                    }`}
                  />
                </button>
              ))}
            </div>
            <button
              type="button"
              onClick={() => setUserChoice(playing ? "pause" : "play")}
              className="inline-flex h-9 w-9 items-center justify-center rounded-full border border-ink-700 text-slate-200 hover:bg-ink-800"
              aria-label={playing ? "Pause slideshow" : "Play slideshow"}
            >
              {playing ? <PauseIcon className="h-4 w-4" /> : <PlayIcon className="h-4 w-4" />}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
