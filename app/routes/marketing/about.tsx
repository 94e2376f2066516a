// /about: the experimental collaboration behind the product, its two partners, and how to reach us.
import { publicOrigin } from "#server/http/public-origin";
import { BackLink } from "../../components/marketing/back-link";
import { marketingPages } from "../../components/marketing/content/pages";
import { CameraIcon, MailIcon, SparklesIcon } from "../../components/marketing/icons";
import { MarketingLayout, PageIntro } from "../../components/marketing/marketing-layout";
import { brand } from "../../lib/brand";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/about";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  return { origin: publicOrigin(request) };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.about, origin: loaderData?.origin });

/** The partner names are written to sit mid-sentence; as a heading they start with a capital. */
const sentenceCase = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const partners = [
  {
    icon: CameraIcon,
    role: "The camera partner",
    name: brand.cameraPartner,
    text: `Designs professional cameras for broadcast, live production, houses of worship and events. It brings the camera side: pan, tilt and zoom control, exposure and colour, and years of knowing how real video teams work.`,
  },
  {
    icon: SparklesIcon,
    role: "The AI partner",
    name: brand.visionPartner,
    text: `Builds ${brand.visionModel}, an open-source vision language model that is small enough to run almost anywhere and capable enough to caption a scene, point at objects and box anything you name.`,
  },
];

export default function About() {
  return (
    <MarketingLayout>
      <PageIntro
        eyebrow="About"
        title="Where cameras meet open-source AI"
        lead={`${brand.productName} is an experimental collaboration between ${brand.cameraPartner} and ${brand.visionPartner}, built to find out what every camera could do if it understood what it sees.`}
      />
      <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6">
        <BackLink />
        <section aria-labelledby="why-title" className="mt-8">
          <h2 id="why-title" className="text-2xl font-semibold text-white">
            Why we built it
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-300">
            Cameras record far more than anyone can watch. Vision language models can now describe a frame, find objects by name and answer questions about a scene, but trying them
            on a real camera has meant writing code. {brand.productName} puts them in a browser studio: connect a camera, ask for what matters, and let automation take it from
            there.
          </p>
          <p className="mt-4 leading-7 text-slate-300">
            It is for photographers, videographers, broadcasters, educators and businesses who want to test camera-based AI on their own footage before they commit to building
            anything.
          </p>
        </section>

        <section aria-labelledby="partners-title" className="mt-14">
          <h2 id="partners-title" className="text-2xl font-semibold text-white">
            The partners
          </h2>
          <div className="mt-6 grid gap-6 md:grid-cols-2">
            {partners.map((partner) => (
              <article key={partner.role} className="rounded-3xl border border-ink-700 bg-ink-900 p-8">
                <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-500/15 text-brand-400">
                  <partner.icon className="h-6 w-6" />
                </span>
                <p className="mt-5 text-sm font-semibold tracking-[0.16em] text-brand-400 uppercase">{partner.role}</p>
                <h3 className="mt-2 text-xl font-semibold text-white">{sentenceCase(partner.name)}</h3>
                <p className="mt-3 leading-7 text-slate-300">{partner.text}</p>
              </article>
            ))}
          </div>
        </section>

        <aside aria-labelledby="experimental-title" className="mt-14 rounded-3xl border border-amber-500/30 bg-amber-500/10 p-8">
          <h2 id="experimental-title" className="text-lg font-semibold text-amber-100">
            An experiment, and honest about it
          </h2>
          <p className="mt-3 leading-7 text-amber-50/90">
            {brand.productName} is experimental. Features will change, AI results can be wrong, and it is not a safety system: please don't rely on it where a missed detection
            could hurt someone. Tell us what works and what doesn't, and help shape what comes next.
          </p>
        </aside>

        <section aria-labelledby="contact-title" className="mt-14 text-center">
          <h2 id="contact-title" className="text-2xl font-semibold text-white">
            Get in touch
          </h2>
          <p className="mt-3 text-slate-300">Questions, ideas or a project in mind? We'd like to hear from you.</p>
          <a
            href={`mailto:${brand.contactEmail}`}
            className="mt-5 inline-flex items-center gap-2 rounded-md px-2 py-1 text-lg font-medium text-brand-400 hover:text-brand-100 hover:underline"
          >
            <MailIcon className="h-5 w-5" />
            {brand.contactEmail}
          </a>
        </section>
      </div>
    </MarketingLayout>
  );
}
