// Home section 1: the headline and a story-mode sentence revealed a word every 400 ms once 30% visible
// (the page script's reveal.ts plays it; the server renders the first state).
import { brand } from "../../lib/brand";
import { ButtonPageLink } from "./page-link";
import { HERO_SENTENCE } from "./content/hero";
import { FREE_API_CALLS } from "./content/free-tier";
import { ArrowRightIcon, PlayIcon } from "./icons";
import { stagedClass } from "./view-states";

const words = HERO_SENTENCE.split(" ");

export function Hero() {
  return (
    <section aria-labelledby="hero-title" data-section="hero" className="relative overflow-hidden">
      <div className="hero-glow pointer-events-none absolute inset-0" aria-hidden="true" />
      <div className="hero-grid pointer-events-none absolute inset-0" aria-hidden="true" />
      <div className="relative mx-auto max-w-4xl px-4 pt-16 pb-8 text-center sm:px-6 sm:pt-24 sm:pb-10">
        <p className="inline-flex items-center gap-2 rounded-full border border-brand-500/30 bg-brand-500/10 px-4 py-1.5 text-sm font-medium text-brand-100">
          <span className="h-2 w-2 rounded-full bg-brand-400" aria-hidden="true" />
          AI-Powered Camera Intelligence
        </p>
        <h1 id="hero-title" className="mt-6 text-4xl font-bold tracking-tight text-white sm:text-6xl">
          {brand.productName}: <span className="bg-gradient-to-r from-brand-400 via-sky-300 to-emerald-300 bg-clip-text text-transparent sm:block">{brand.tagline}</span>
        </h1>

        <figure className="mx-auto mt-8 max-w-2xl rounded-2xl border border-ink-700 bg-ink-900/80 p-5 text-left shadow-2xl shadow-black/30 sm:p-6">
          <figcaption className="flex items-center gap-2 text-xs font-semibold tracking-[0.16em] text-slate-400 uppercase">
            <span className="h-2 w-2 rounded-full bg-red-500" aria-hidden="true" />
            Story mode · live caption
          </figcaption>
          <p className="mt-3 min-h-[3.5rem] text-lg leading-8 text-slate-100 sm:text-xl" data-testid="hero-sentence" data-reveal data-revealed={0}>
            <span className="sr-only">{HERO_SENTENCE}</span>
            {/* The transition sits on the parent once rather than on each of the words. */}
            <span aria-hidden="true" className="[&>span]:transition-[opacity,visibility] [&>span]:duration-300">
              {words.map((word, index) => (
                <span key={index} data-staged data-word className={stagedClass(false)}>
                  {word}{" "}
                </span>
              ))}
            </span>
          </p>
        </figure>

        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <ButtonPageLink to="/signup" className="w-full px-6 py-3 text-base sm:w-auto">
            Start Testing Your Vision System
            <ArrowRightIcon className="h-5 w-5" />
          </ButtonPageLink>
          <ButtonPageLink to="/studio" variant="secondary" className="w-full px-6 py-3 text-base sm:w-auto">
            <PlayIcon className="h-4 w-4" />
            Try Live Demo
          </ButtonPageLink>
        </div>
        <p className="mt-5 text-sm text-slate-400">{FREE_API_CALLS} free API calls · No credit card required</p>
      </div>
    </section>
  );
}
