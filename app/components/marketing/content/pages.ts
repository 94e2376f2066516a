// The public pages: their paths, titles and descriptions, shared by each page's head tags and the sitemap.
import { brand } from "#app/lib/brand";

const name = brand.productName;

export const marketingPages = {
  home: {
    path: "/",
    title: `${name}: ${brand.tagline} | AI Camera Vision Studio`,
    description: `Connect any camera, detect anything with open-source vision AI in real time, and automate photo capture, alerts and webhooks. Start with 100 free API calls.`,
  },
  pricing: {
    path: "/pricing",
    title: `Pricing: Free, Professional and Partner Plans | ${name}`,
    description: `Start free with 100 API calls and no credit card. Professional and Partner plans add unlimited calls, custom model training, HIPAA options and white-label resale.`,
  },
  downloads: {
    path: "/downloads",
    title: `Downloads: Ready-Made Vision AI Modules | ${name}`,
    description: `Download the People Counter & Analytics module as a single HTML file, and see the defect detection, scoreboard and sentiment modules in development.`,
  },
  about: {
    path: "/about",
    title: `About ${name}: Cameras Meet Open-Source Vision AI`,
    description: `${name} is an experimental collaboration between ${brand.cameraPartner} and ${brand.visionPartner}, ${brand.visionModel}. Learn who is behind it and why.`,
  },
  contact: {
    path: "/contact",
    title: `Contact Sales: Commercial and Educational Licensing | ${name}`,
    description: `Talk to our team about commercial or educational licensing of ${name}. We reply within one business day.`,
  },
  eula: {
    path: "/eula",
    title: `End User License Agreement | ${name}`,
    description: `The terms for using ${name}: your licence, accounts, your content, AI accuracy, third-party services, privacy, camera control and more.`,
  },
} as const;

export type MarketingPageId = keyof typeof marketingPages;

/** Every page a crawler should index, in sitemap order. */
export const indexablePaths: string[] = Object.values(marketingPages).map((page) => page.path);
