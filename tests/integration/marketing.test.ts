// The public site as a crawler without JavaScript sees it: every page's text in the server HTML, unique
// titles and head tags, canonical URLs on the public origin, robots.txt, sitemap.xml, and no studio code.
import http from "node:http";
import { gzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { labDemo, wildlifeDemo } from "#app/components/marketing/content/demos";
import { downloadModules } from "#app/components/marketing/content/downloads";
import { eulaSections } from "#app/components/marketing/content/eula";
import { HERO_SENTENCE } from "#app/components/marketing/content/hero";
import { highlights, steps } from "#app/components/marketing/content/highlights";
import { industries } from "#app/components/marketing/content/industries";
import { faqs, tiers } from "#app/components/marketing/content/pricing";
import { slides } from "#app/components/marketing/content/slides";
import { startApp, tempDir } from "../support/stack";

const baseUrl = inject("baseUrl");
const PUBLIC_PAGES = ["/", "/pricing", "/downloads", "/eula", "/about", "/contact"];

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#x27": "'", "#39": "'", nbsp: " " };

/** The visible text of an HTML document (scripts and styles dropped, tags removed, entities decoded, spaces collapsed). */
function textOf(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(#x27|#39|amp|lt|gt|quot|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, " ")
    .replace(/ ([.,:;!?)])/g, "$1");
}

/** Fetches a page the way a crawler does: plain GET, no JavaScript. */
async function crawl(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1)", ...headers } });
  const html = await response.text();
  return { response, html, text: textOf(html) };
}

function headTag(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

const metaContent = (html: string, key: string) => headTag(html, new RegExp(`<meta (?:name|property)="${key.replace(":", "\\:")}" content="([^"]*)"`));

function expectTexts(text: string, expected: string[]) {
  const missing = expected.filter((phrase) => !text.includes(textOf(phrase)));
  expect(missing).toEqual([]);
}

describe("the home page without JavaScript", () => {
  it("contains the text of all eight sections, their end states included", async () => {
    const { response, html, text } = await crawl("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(headTag(html, /<h1[^>]*>([\s\S]*?)<\/h1>/)).toBeDefined();
    expectTexts(text, [
      "AI-Powered Camera Intelligence",
      "Framewise: Intelligence for Video",
      HERO_SENTENCE,
      ...slides.flatMap((slide) => [slide.title, slide.description]),
      ...steps.flatMap((step) => [step.number, step.title, step.description]),
      ...industries.flatMap((industry) => [industry.name, industry.title, industry.description, ...industry.features]),
      "Contact Our Team",
      "Education & Science",
      "Wildlife & Nature",
      ...[labDemo, wildlifeDemo].flatMap((demo) => [demo.title, demo.caption, ...demo.boxes.map((box) => box.label)]),
      "Beaker",
      "Erlenmeyer Flask",
      "Test Tube",
      "Great Tit",
      "Photo Auto-Captured",
      ...highlights.flatMap((feature) => [feature.title, feature.description]),
      "Built with Moondream",
      "An API key is required, and it's free",
      "View Documentation",
      "View Pricing",
      "Start Testing Your Vision System",
      "Try Live Demo",
      "About",
      "Downloads",
      "Terms",
      "the camera maker's parent company",
    ]);
    // 'Contact Our Team' is rendered for exactly the two industries that need it.
    expect(html.match(/Contact Our Team/g)).toHaveLength(2);
  });

  it("links the top bar to /pricing, /downloads, /login and /signup and the footer to /about, /downloads and /eula", async () => {
    const { html } = await crawl("/");
    for (const href of ["/pricing", "/downloads", "/login", "/signup", "/studio", "/about", "/eula", "/contact"]) {
      expect(html).toContain(`href="${href}"`);
    }
    expect(html).toMatch(/<a target="_blank" rel="noopener noreferrer"[^>]*href="https:\/\/docs\./);
  });

  it("gives every picture its width and height, so nothing shifts while images load", async () => {
    const { html } = await crawl("/");
    const images = html.match(/<img\b[^>]*>/g) ?? [];
    expect(images.length).toBeGreaterThanOrEqual(6);
    for (const image of images) {
      expect(image).toMatch(/ width="\d+"/);
      expect(image).toMatch(/ height="\d+"/);
      expect(image).toMatch(/ alt="/);
    }
  });

  it("loads no studio, admin or sign-in code", async () => {
    const { html } = await crawl("/");
    const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((src) => /\/(studio|dashboard|login|signup|auth)-/.test(src))).toEqual([]);
  });
});

describe("the public pages' JavaScript", () => {
  /** Every <script> of a page with its attributes and inline body, and every module preload. */
  function scriptsOf(html: string) {
    return {
      scripts: [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({ attributes: match[1]!, body: match[2]! })),
      preloads: [...html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)],
    };
  }

  it("is one small same-origin module script: no React, no router context, no preloads", async () => {
    let scriptUrl: string | undefined;
    for (const path of PUBLIC_PAGES) {
      const { response, html } = await crawl(path);
      const { scripts, preloads } = scriptsOf(html);
      expect(preloads, path).toEqual([]);
      expect(html, path).not.toContain("__reactRouterContext");
      expect(scripts, path).toHaveLength(1);
      const [script] = scripts;
      expect(script!.body).toBe("");
      expect(script!.attributes).toContain('type="module"');
      // Prerendered, the same bytes for everyone: no nonce; the CSP lets same-origin scripts run instead.
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self' 'wasm-unsafe-eval';");
      expect(script!.attributes).not.toContain("nonce");
      const src = /src="(\/assets\/marketing-page-[\w-]+\.js)"/.exec(script!.attributes)?.[1];
      expect(src, path).toBeDefined();
      scriptUrl ??= src;
      expect(src, "every public page loads the same script").toBe(scriptUrl);
    }

    const script = await fetch(`${baseUrl}${scriptUrl}`, { headers: { "accept-encoding": "gzip" } });
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
    expect(script.headers.get("cache-control")).toContain("immutable");
    // The budget is 100 KB of JavaScript on /; the page script is meant to stay a few KB.
    expect(gzipSync(Buffer.from(await script.arrayBuffer())).length).toBeLessThan(10 * 1024);
  });

  it("leaves the sign-in and sign-up pages hydrated", async () => {
    for (const path of ["/login", "/signup"]) {
      const { html } = await crawl(path);
      expect(html, path).toContain("__reactRouterContext");
      expect(html, path).not.toContain("/assets/marketing-page-");
      expect(scriptsOf(html).preloads.length, path).toBeGreaterThan(0);
    }
  });
});

describe("the inner pages without JavaScript", () => {
  it("/pricing has the three tiers, their features and limitations, and the five questions and answers", async () => {
    const { text } = await crawl("/pricing");
    expectTexts(text, [
      ...tiers.flatMap((tier) => [tier.name, tier.price, tier.description, tier.cta.label, ...tier.features, ...tier.limitations]),
      ...faqs.flatMap((faq) => [faq.question, faq.answer]),
      "Home",
      "Log In",
      "Sign Up",
    ]);
    expect(faqs).toHaveLength(5);
  });

  it("/downloads has the People Counter, the three modules in development and the custom-modules note", async () => {
    const { html, text } = await crawl("/downloads");
    expectTexts(text, [...downloadModules.flatMap((module) => [module.name, module.description, ...module.features]), "In Development"]);
    expect(html).toMatch(/href="\/people-counter\.html" download="people-counter\.html"/);
    expect(text).toContain("custom modules");
  });

  it("/eula has the 18 sections in order and today's date", async () => {
    const { text } = await crawl("/eula");
    expect(eulaSections).toHaveLength(18);
    let from = 0;
    for (const [index, section] of eulaSections.entries()) {
      const at = text.indexOf(`${index + 1}. ${section.title}`, from);
      expect(at, section.title).toBeGreaterThan(from);
      from = at;
      expectTexts(text, section.paragraphs);
    }
    const today = new Date().toLocaleDateString("en-US", { month: "short", day: "numeric", year: "numeric" });
    expect(text).toContain(`Last Updated: ${today}`);
    expect(text).toContain("Back");
  });

  it("/about describes the collaboration, both partners, a contact e-mail and the experimental notice", async () => {
    const { html, text } = await crawl("/about");
    expectTexts(text, [
      "experimental collaboration between a professional camera maker and the open-source vision-model provider",
      "A professional camera maker",
      "The open-source vision-model provider",
      "An experiment, and honest about it",
    ]);
    expect(html).toMatch(/href="mailto:[^"]+@[^"]+"/);
  });

  it("/contact has both licensing blurbs, the 'Contact Sales' mail link and the listed links", async () => {
    const { html, text } = await crawl("/contact");
    expectTexts(text, ["Commercial licensing", "Educational licensing", "Contact Sales", "within one business day", "Try Live Demo"]);
    expect(html).toMatch(/href="mailto:sales@[^"]+"/);
    for (const href of ["/signup", "/studio", "/login", "/about", "/eula"]) expect(html).toContain(`href="${href}"`);
  });
});

describe("head tags", () => {
  it("gives every page its own title and description, a canonical URL and Open Graph tags", async () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const path of PUBLIC_PAGES) {
      const { html } = await crawl(path);
      const title = headTag(html, /<title>([^<]+)<\/title>/)!;
      const description = metaContent(html, "description")!;
      expect(title, path).toContain("Framewise");
      expect(description.length, path).toBeGreaterThan(50);
      titles.add(title);
      descriptions.add(description);
      const canonical = `${baseUrl}${path}`;
      expect(html).toContain(`<link rel="canonical" href="${canonical}"/>`);
      expect(metaContent(html, "og:url")).toBe(canonical);
      expect(metaContent(html, "og:title")).toBe(title.replace(/&amp;/g, "&"));
      expect(metaContent(html, "og:description")).toBeDefined();
      expect(metaContent(html, "og:image")).toBe(`${baseUrl}/marketing/og-image.png`);
      expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
    }
    expect(titles.size).toBe(PUBLIC_PAGES.length);
    expect(descriptions.size).toBe(PUBLIC_PAGES.length);
  });

  it("builds canonical URLs on the origin the visitor used, through a trusted proxy", async () => {
    // fetch() always sends the real Host, so this one goes through node:http as a proxy would.
    const html = await new Promise<string>((resolve, reject) => {
      const request = http.get(`${baseUrl}/pricing`, { headers: { host: "framewise.example", "x-forwarded-proto": "https" } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve(body));
      });
      request.on("error", reject);
    });
    expect(html).toContain('<link rel="canonical" href="https://framewise.example/pricing"/>');
  });

  it("prefers PUBLIC_URL when the operator set it", async () => {
    const app = await startApp({
      DATABASE_URL: inject("databaseUrl"),
      DATA_DIR: tempDir("public-url"),
      PUBLIC_URL: "https://www.framewise.example",
    });
    try {
      const html = await (await fetch(`${app.url}/downloads`)).text();
      expect(html).toContain('<link rel="canonical" href="https://www.framewise.example/downloads"/>');
      expect(await (await fetch(`${app.url}/robots.txt`)).text()).toContain("Sitemap: https://www.framewise.example/sitemap.xml");
    } finally {
      await app.stop();
    }
  });

  it("serves the social card image", async () => {
    const response = await fetch(`${baseUrl}/marketing/og-image.png`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
  });
});

describe("robots.txt and sitemap.xml", () => {
  it("robots.txt allows the site, keeps crawlers out of the app and the API, and names the sitemap", async () => {
    const response = await fetch(`${baseUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const body = await response.text();
    expect(body).toContain("User-agent: *\nAllow: /\n");
    for (const path of ["/studio", "/admin", "/api/"]) expect(body).toContain(`Disallow: ${path}\n`);
    expect(body).toContain(`Sitemap: ${baseUrl}/sitemap.xml`);
  });

  it("sitemap.xml lists every public page with an absolute URL", async () => {
    const response = await fetch(`${baseUrl}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const body = await response.text();
    expect(body).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
    const locations = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations.sort()).toEqual(PUBLIC_PAGES.map((path) => `${baseUrl}${path}`).sort());
  });
});
