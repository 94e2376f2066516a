// /contact: commercial and educational licensing, the sales e-mail, and where to go next.
import { PageLink } from "../../components/marketing/page-link";
import { publicOrigin } from "#server/http/public-origin";
import { marketingPages } from "../../components/marketing/content/pages";
import { BuildingIcon, FlaskIcon, MailIcon } from "../../components/marketing/icons";
import { MarketingLayout, PageIntro } from "../../components/marketing/marketing-layout";
import { buttonClass } from "../../components/ui/button";
import { brand } from "../../lib/brand";
import { pageMeta } from "../../lib/seo";
import type { Route } from "./+types/contact";
import { marketingClientLoader, marketingHandle } from "../../components/marketing/static-page";

export function loader({ request }: Route.LoaderArgs) {
  return { origin: publicOrigin(request) };
}

// Server HTML and the page script only (no hydration); client navigations here load the whole document.
export const handle = marketingHandle;
export const clientLoader = marketingClientLoader;

export const meta: Route.MetaFunction = ({ loaderData }) => pageMeta({ ...marketingPages.contact, origin: loaderData?.origin });

const SALES_SUBJECT = `${brand.productName} licensing enquiry`;

const licensing = [
  {
    icon: BuildingIcon,
    title: "Commercial licensing",
    text: `Put ${brand.productName} to work in your business: unlimited API calls, custom model training, integrations with your workflow tools, e-mail and SMS alerts, and HIPAA options for healthcare. Partners can offer it under their own brand.`,
  },
  {
    icon: FlaskIcon,
    title: "Educational licensing",
    text: `For schools, universities and research labs: document experiments automatically, teach computer vision with real cameras, and give classes access under one licence shaped around your institution.`,
  },
];

const nextSteps = [
  { to: "/signup", label: "Create a free account" },
  { to: "/studio", label: "Try Live Demo" },
  { to: "/login", label: "Log in" },
  { to: "/about", label: "About us" },
  { to: "/eula", label: "License agreement" },
];

export default function Contact() {
  return (
    <MarketingLayout>
      <PageIntro
        eyebrow="Contact"
        title="Let's talk licensing"
        lead={`Whether you are deploying cameras across a business or bringing vision AI into the classroom, we'll help you find the right way to use ${brand.productName}.`}
      />
      <div className="mx-auto max-w-5xl px-4 py-16 sm:px-6">
        <div className="grid gap-6 md:grid-cols-2">
          {licensing.map((item) => (
            <section key={item.title} aria-labelledby={`${item.title}-title`} className="rounded-3xl border border-ink-700 bg-ink-900 p-8">
              <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-500/15 text-brand-400">
                <item.icon className="h-6 w-6" />
              </span>
              <h2 id={`${item.title}-title`} className="mt-5 text-xl font-semibold text-white">
                {item.title}
              </h2>
              <p className="mt-3 leading-7 text-slate-300">{item.text}</p>
            </section>
          ))}
        </div>

        <section
          aria-labelledby="sales-title"
          className="relative mt-10 overflow-hidden rounded-3xl border border-brand-500/30 bg-gradient-to-br from-brand-500/15 via-ink-900 to-ink-900 p-8 text-center sm:p-12"
        >
          <h2 id="sales-title" className="text-2xl font-bold text-white sm:text-3xl">
            Talk to our sales team
          </h2>
          <p className="mx-auto mt-3 max-w-xl text-lg text-slate-300">Tell us about your cameras, your setting and what you want to detect. We reply within one business day.</p>
          <a href={`mailto:${brand.salesEmail}?subject=${encodeURIComponent(SALES_SUBJECT)}`} className={buttonClass("primary", "mt-8 px-6 py-3 text-base")}>
            <MailIcon className="h-5 w-5" />
            Contact Sales
          </a>
          <p className="mt-4 text-sm text-slate-400">
            or write to <span className="text-slate-200">{brand.salesEmail}</span>
          </p>
        </section>

        <nav aria-labelledby="next-title" className="mt-12">
          <h2 id="next-title" className="text-center text-sm font-semibold tracking-[0.16em] text-slate-300 uppercase">
            Not ready to talk yet?
          </h2>
          <ul className="mt-5 flex flex-wrap justify-center gap-3">
            {nextSteps.map((step) => (
              <li key={step.to}>
                <PageLink to={step.to} className={buttonClass("secondary")}>
                  {step.label}
                </PageLink>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </MarketingLayout>
  );
}
