// Home section 2: four use-case slides that loop, advance every 5 s, and jump from their dots. The server
// renders the first slide playing; the page script's carousel.ts runs it (and stills it for reduced motion).
import { CAROUSEL_INTERVAL_MS, SLIDE_SIZE, slides } from "./content/slides";
import { PauseIcon, PlayIcon } from "./icons";
import { SectionHeading } from "./marketing-layout";
import { pick, SLIDE_CAPTION, SLIDE_DOT, SLIDE_IMAGE, slideCounter, slideshowLabel } from "./view-states";

const ACTIVE = 0;
const PLAYING = true;

export function ShowcaseCarousel() {
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
        data-carousel={CAROUSEL_INTERVAL_MS}
        className="mt-10 grid overflow-hidden rounded-3xl border border-ink-700 bg-ink-900 shadow-2xl shadow-black/40 lg:grid-cols-[1.75fr_1fr]"
      >
        <div className="relative aspect-[1200/750] bg-ink-800">
          {slides.map((slide, index) => (
            <img
              key={slide.image}
              src={slide.image}
              alt={index === ACTIVE ? slide.alt : ""}
              data-alt={slide.alt}
              data-slide-image
              aria-hidden={index === ACTIVE ? undefined : true}
              width={SLIDE_SIZE.width}
              height={SLIDE_SIZE.height}
              loading={index === 0 ? "eager" : "lazy"}
              decoding="async"
              className={`absolute inset-0 h-full w-full object-cover transition-opacity duration-700 motion-reduce:transition-none ${pick(SLIDE_IMAGE, index === ACTIVE)}`}
            />
          ))}
        </div>
        <div className="flex flex-col justify-between gap-6 p-6 sm:p-8">
          <div>
            <p className="font-mono text-sm font-semibold text-brand-400" aria-hidden="true" data-slide-counter>
              {slideCounter(ACTIVE, slides.length)}
            </p>
            {/* All captions share one grid cell, so the block is as tall as the longest and never jumps. */}
            <div className="mt-3 grid" aria-live={PLAYING ? "off" : "polite"} data-slide-captions>
              {slides.map((slide, index) => (
                <div
                  key={slide.title}
                  role="group"
                  aria-roledescription="slide"
                  aria-label={`${index + 1} of ${slides.length}`}
                  data-slide
                  data-active={index === ACTIVE}
                  inert={index !== ACTIVE}
                  className={`transition-opacity duration-500 [grid-area:1/1] motion-reduce:transition-none ${pick(SLIDE_CAPTION, index === ACTIVE)}`}
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
                  data-slide-dot
                  aria-label={`Show slide ${index + 1}: ${slide.title}`}
                  aria-current={index === ACTIVE ? "true" : undefined}
                  className="group inline-flex h-8 min-w-8 items-center justify-center rounded-full px-2"
                >
                  <span className={`block h-2.5 rounded-full transition-all motion-reduce:transition-none ${pick(SLIDE_DOT, index === ACTIVE)}`} />
                </button>
              ))}
            </div>
            <button
              type="button"
              data-slide-toggle
              className="inline-flex h-9 w-9 items-center justify-center rounded-full border border-ink-700 text-slate-200 hover:bg-ink-800"
              aria-label={slideshowLabel(PLAYING)}
            >
              {/* Both icons are in the page; the script shows the one that fits. */}
              <PauseIcon className="h-4 w-4" data-when-playing hidden={!PLAYING} />
              <PlayIcon className="h-4 w-4" data-when-paused hidden={PLAYING} />
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
