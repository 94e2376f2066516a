// The call to action after the last home section: pricing, sign-up and the live demo.
import { ButtonPageLink } from "./page-link";
import { ArrowRightIcon } from "./icons";

export function ClosingCta() {
  return (
    <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
      <div className="relative overflow-hidden rounded-3xl border border-ink-700 bg-ink-900 px-6 py-14 text-center sm:px-12">
        <div className="hero-glow pointer-events-none absolute inset-0" aria-hidden="true" />
        <div className="relative">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight text-white sm:text-4xl">
            Ready to see what your camera can do?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg leading-8 text-slate-300">Create a free account, connect a camera and run your first detection in minutes.</p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <ButtonPageLink to="/signup" className="w-full px-6 py-3 text-base sm:w-auto">
              Start Testing Your Vision System
              <ArrowRightIcon className="h-5 w-5" />
            </ButtonPageLink>
            <ButtonPageLink to="/pricing" variant="secondary" className="w-full px-6 py-3 text-base sm:w-auto">
              View Pricing
            </ButtonPageLink>
          </div>
        </div>
      </div>
    </section>
  );
}
