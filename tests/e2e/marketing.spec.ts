// The public site in a real browser (desktop and phone projects): the home page's sections and their
// animations on a controlled clock, tabs, carousel, menus, the inner pages, and every link.
import type { Locator, Page } from "@playwright/test";
import { format } from "date-fns";
import { labDemo, wildlifeDemo, type Demo } from "#app/components/marketing/content/demos";
import { HERO_SENTENCE } from "#app/components/marketing/content/hero";
import { expect, signUpInBrowser, test } from "./fixtures";

const PUBLIC_PAGES = ["/", "/pricing", "/downloads", "/eula", "/about", "/contact"];
const SLIDES = ["Healthcare Monitoring", "People Counting", "Construction Safety", "AI Story Mode"];
const INDUSTRIES = ["Broadcast", "Worship", "Healthcare", "Manufacturing", "Corporate", "Entertainment", "Sports"];

/** Opens a public page and waits until its page script has made its controls work. */
async function open(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator('[data-enhanced="true"]')).toHaveCount(1);
}

/**
 * Stops the page's fake clock where it is: from here on timers fire only when the test advances time.
 * (The clock runs freely while the page loads, so hydration is never starved of timers.) pauseAt() only
 * moves forward, so on a busy machine the page's "now" may have passed the target: read it again and retry.
 */
async function pauseClock(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 250);
      return;
    } catch (error) {
      if (attempt === 5 || !String(error).includes("to the past")) throw error;
    }
  }
}

const heroWords = () => HERO_SENTENCE.split(" ").length;

test.describe("home page", () => {
  test("has the eight sections in the spec's order, each with its content", async ({ page }) => {
    await open(page, "/");
    const order = await page.locator("[data-section]").evaluateAll((sections) => sections.map((s) => (s as HTMLElement).dataset.section));
    expect(order).toEqual(["hero", "carousel", "steps", "industries", "education", "wildlife", "features", "built-with"]);

    const section = (id: string) => page.locator(`[data-section="${id}"]`);
    await expect(section("hero")).toContainText("AI-Powered Camera Intelligence");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Framewise: Intelligence for Video");
    for (const title of SLIDES) await expect(section("carousel")).toContainText(title);
    await expect(section("steps").getByRole("listitem")).toHaveCount(3);
    for (const step of ["01", "Connect", "02", "Detect", "03", "Automate"]) await expect(section("steps")).toContainText(step);
    await expect(section("industries").getByRole("tab")).toHaveText(INDUSTRIES);
    await expect(section("education")).toContainText("Education & Science");
    await expect(section("wildlife")).toContainText("Wildlife & Nature");
    await expect(section("features").getByRole("listitem")).toHaveCount(6);
    await expect(section("built-with")).toContainText("API key is required, and it's free");

    await expect(page.getByRole("link", { name: "View Pricing" })).toHaveAttribute("href", "/pricing");
    await expect(page.getByRole("link", { name: "Try Live Demo" })).toHaveAttribute("href", "/studio");
    const signUpButtons = page.getByRole("link", { name: "Start Testing Your Vision System" });
    await expect(signUpButtons.first()).toHaveAttribute("href", "/signup");

    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "About" })).toHaveAttribute("href", "/about");
    await expect(footer.getByRole("link", { name: "Downloads" })).toHaveAttribute("href", "/downloads");
    await expect(footer.getByRole("link", { name: "Terms" })).toHaveAttribute("href", "/eula");
    await expect(footer).toContainText("the camera maker's parent company");
  });

  test("reveals the hero sentence one word every 400 ms", async ({ page }) => {
    await page.clock.install();
    await open(page, "/");
    await pauseClock(page);
    const sentence = page.getByTestId("hero-sentence");
    const revealed = async () => Number(await sentence.getAttribute("data-revealed"));
    const words = sentence.locator("[data-word]");
    await expect(words).toHaveCount(heroWords());

    const before = await revealed();
    expect(before).toBeLessThan(heroWords());
    await expect(words.last()).toBeHidden();
    // One word per 400 ms, never more.
    await page.clock.runFor(400);
    await expect.poll(revealed).toBe(before + 1);
    await page.clock.runFor(400);
    await expect.poll(revealed).toBe(before + 2);

    await page.clock.runFor(400 * heroWords());
    await expect.poll(revealed).toBe(heroWords());
    await expect(words.last()).toBeVisible();
    await expect(sentence).toContainText(HERO_SENTENCE);
  });

  test("the carousel advances every 5 s, loops, and its dots jump to a slide", async ({ page }) => {
    await page.clock.install();
    await open(page, "/");
    await pauseClock(page);
    const carousel = page.getByRole("region", { name: "Use cases" });
    const slideTitle = (title: string) => carousel.getByRole("heading", { name: title });
    const dot = (index: number) => carousel.getByRole("button", { name: `Show slide ${index + 1}: ${SLIDES[index]}` });

    await expect(slideTitle(SLIDES[0]!)).toBeVisible();
    await expect(dot(0)).toHaveAttribute("aria-current", "true");
    for (const next of [1, 2, 3, 0]) {
      await page.clock.runFor(5000);
      await expect(slideTitle(SLIDES[next]!)).toBeVisible();
      await expect(dot(next)).toHaveAttribute("aria-current", "true");
    }
    await expect(carousel.getByRole("heading", { level: 3 })).toHaveCount(1); // the other slides are hidden

    await dot(2).click();
    await expect(slideTitle("Construction Safety")).toBeVisible();
    await expect(carousel.getByRole("img")).toHaveAttribute("alt", /construction site/);
    // A chosen slide gets its full 5 s before the carousel moves on.
    await page.clock.runFor(4900);
    await expect(slideTitle("Construction Safety")).toBeVisible();
    await page.clock.runFor(100);
    await expect(slideTitle("AI Story Mode")).toBeVisible();

    await dot(1).focus();
    await page.keyboard.press("Enter");
    await expect(slideTitle("People Counting")).toBeVisible();

    await carousel.getByRole("button", { name: "Pause slideshow" }).click();
    await page.clock.runFor(15_000);
    await expect(slideTitle("People Counting")).toBeVisible();
    await carousel.getByRole("button", { name: "Play slideshow" }).click();
    await page.clock.runFor(5000);
    await expect(slideTitle("Construction Safety")).toBeVisible();
  });

  test("industry tabs: broadcast by default, 'Contact Our Team' only for healthcare and manufacturing", async ({ page }) => {
    await open(page, "/");
    const tabs = page.getByRole("tablist", { name: "Industries" });
    const panel = page.getByRole("tabpanel");
    const contact = page.getByRole("link", { name: "Contact Our Team" });

    await expect(tabs.getByRole("tab", { name: "Broadcast" })).toHaveAttribute("aria-selected", "true");
    await expect(panel).toHaveCount(1);
    await expect(panel).toContainText("camera-tuning advice");
    await expect(panel.getByRole("heading", { name: "Key features" })).toBeVisible();
    await expect(contact).toHaveCount(0);

    const expected: Record<string, { text: string; contact: boolean }> = {
      Worship: { text: "attendance", contact: false },
      Healthcare: { text: "Patient-room monitoring", contact: true },
      Manufacturing: { text: "Defect detection", contact: true },
      Corporate: { text: "meeting-space analytics", contact: false },
      Entertainment: { text: "sentiment", contact: false },
      Sports: { text: "Scoreboard", contact: false },
    };
    for (const [name, { text, contact: hasContact }] of Object.entries(expected)) {
      await tabs.getByRole("tab", { name }).click();
      await expect(tabs.getByRole("tab", { name })).toHaveAttribute("aria-selected", "true");
      await expect(panel).toContainText(new RegExp(text, "i"));
      await expect(contact).toHaveCount(hasContact ? 1 : 0);
      if (hasContact) await expect(contact).toHaveAttribute("href", "/contact");
    }
  });

  test("industry tabs work from the keyboard: arrows, Home and End", async ({ page }) => {
    await open(page, "/");
    const tab = (name: string) => page.getByRole("tab", { name });
    await tab("Broadcast").focus();
    await page.keyboard.press("ArrowRight");
    await expect(tab("Worship")).toBeFocused();
    await expect(tab("Worship")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("End");
    await expect(tab("Sports")).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(tab("Broadcast")).toBeFocused();
    await page.keyboard.press("ArrowLeft");
    await expect(tab("Sports")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Home");
    await expect(tab("Broadcast")).toHaveAttribute("aria-selected", "true");
    // Only the selected tab is in the Tab order; Tab moves on into its panel.
    await expect(page.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("tabpanel")).toBeFocused();
  });

  for (const demo of [labDemo, wildlifeDemo]) {
    test(`the ${demo.eyebrow} demo scans, labels, captions and auto-captures on the spec's timings`, async ({ page }) => {
      await page.clock.install();
      await open(page, "/");
      await pauseClock(page);
      await playDemo(page, demo);
    });
  }

  test("with reduced motion, every animation shows its end state at once and the carousel stays still", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.clock.install();
    await open(page, "/");
    await pauseClock(page);
    await expect(page.getByTestId("hero-sentence")).toHaveAttribute("data-revealed", String(heroWords()));
    await expect(page.getByTestId("hero-sentence").locator("[data-word]").last()).toBeVisible();
    for (const demo of [labDemo, wildlifeDemo]) {
      const stage = page.getByTestId(`demo-${demo.id}`);
      await expect(stage).toHaveAttribute("data-phase", "captured");
      await expect(stage.getByText("Photo Auto-Captured")).toBeVisible();
    }
    const carousel = page.getByRole("region", { name: "Use cases" });
    await expect(carousel.getByRole("button", { name: "Play slideshow" })).toBeVisible();
    await page.clock.runFor(20_000);
    await expect(carousel.getByRole("heading", { name: "Healthcare Monitoring" })).toBeVisible();
  });

  test("external links open in a new tab without an opener", async ({ page }) => {
    await open(page, "/");
    const builtWith = page.locator('[data-section="built-with"]');
    await expect(builtWith.getByRole("link", { name: /View Documentation/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(builtWith.getByRole("link", { name: /^Visit / })).toHaveAttribute("href", /^https:\/\//);
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      const external = page.locator('a[href^="http"]');
      for (const link of await external.all()) {
        await expect(link).toHaveAttribute("target", "_blank");
        await expect(link).toHaveAttribute("rel", /noopener/);
        await expect(link).toHaveAttribute("rel", /noreferrer/);
      }
    }
  });

  test("keyboard users get a skip link and a visible focus ring", async ({ page }) => {
    await open(page, "/");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus-visible");
    await expect(focused).toHaveCount(1);
    expect(await focused.evaluate((element) => getComputedStyle(element).outlineStyle)).not.toBe("none");
  });
});

/** Scrolls a demo into view and checks each state of spec §4 on the paused clock. */
async function playDemo(page: Page, demo: Demo) {
  const stage = page.getByTestId(`demo-${demo.id}`);
  const boxes = stage.locator("[data-box]");
  const words = demo.caption.split(" ").length;
  const badge = stage.getByText("Photo Auto-Captured");
  await expect(stage).toHaveAttribute("data-phase", "idle");
  await expect(badge).toBeHidden();
  await stage.scrollIntoViewIfNeeded();

  // Step the clock until the demo has noticed it is in view: from here on it is at most 50 ms in.
  await expect
    .poll(async () => {
      await page.clock.runFor(50);
      return stage.getAttribute("data-phase");
    })
    .toBe("detecting");
  await expect(visibleBoxes(boxes)).resolves.toEqual([]);

  await page.clock.runFor(1000);
  await expect(stage).toHaveAttribute("data-phase", "labeling");
  await expect.poll(() => visibleBoxes(boxes)).toEqual([demo.boxes[0]!.label]);
  for (let shown = 2; shown <= demo.boxes.length; shown++) {
    await page.clock.runFor(demo.boxIntervalMs);
    await expect.poll(() => visibleBoxes(boxes)).toEqual(demo.boxes.slice(0, shown).map((box) => box.label));
  }

  await page.clock.runFor(800);
  await expect(stage).toHaveAttribute("data-phase", "story");
  const caption = stage.locator("[data-word]");
  await expect(caption).toHaveCount(words);
  await expect(caption.first()).toBeHidden();
  await page.clock.runFor(300);
  await expect(caption.first()).toBeVisible();
  await expect(caption.nth(1)).toBeHidden();
  await page.clock.runFor(300 * (words - 1));
  await expect(caption.last()).toBeVisible();
  await expect(badge).toBeHidden();

  await page.clock.runFor(1500);
  await expect(stage).toHaveAttribute("data-phase", "captured");
  await expect(badge).toBeVisible();
  expect(await visibleBoxes(boxes)).toEqual(demo.boxes.map((box) => box.label));
}

async function visibleBoxes(boxes: Locator): Promise<string[]> {
  const labels: string[] = [];
  for (const box of await boxes.all()) if (await box.isVisible()) labels.push((await box.getAttribute("data-box"))!);
  return labels;
}

test.describe("top bar", () => {
  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("the menu toggle shows the home page's four links and closes again", async ({ page }) => {
      await open(page, "/");
      const toggle = page.getByRole("button", { name: "Open menu" });
      const menu = page.locator("#mobile-menu");
      await expect(menu).toBeHidden();
      await expect(toggle).toHaveAttribute("aria-expanded", "false");
      await toggle.click();
      await expect(menu).toBeVisible();
      await expect(page.getByRole("button", { name: "Close menu" })).toHaveAttribute("aria-expanded", "true");
      await expect(menu.getByRole("link")).toHaveText(["Pricing", "Downloads", "Log In", "Sign Up"]);
      const hrefs = await menu.getByRole("link").evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      expect(hrefs).toEqual(["/pricing", "/downloads", "/login", "/signup"]);

      await page.keyboard.press("Escape");
      await expect(menu).toBeHidden();
      await expect(page.getByRole("button", { name: "Open menu" })).toBeFocused();

      await page.getByRole("button", { name: "Open menu" }).click();
      await menu.getByRole("link", { name: "Pricing" }).click();
      await expect(page).toHaveURL(/\/pricing$/);
      await expect(page.locator("#mobile-menu")).toBeHidden();
    });

    test("on the pricing page the menu adds Home", async ({ page }) => {
      await open(page, "/pricing");
      await page.getByRole("button", { name: "Open menu" }).click();
      await expect(page.locator("#mobile-menu").getByRole("link")).toHaveText(["Home", "Pricing", "Downloads", "Log In", "Sign Up"]);
    });
  });

  test.describe("on a wide screen", () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test("shows the links in the bar and no menu toggle", async ({ page }) => {
      await open(page, "/pricing");
      await expect(page.getByRole("button", { name: "Open menu" })).toBeHidden();
      const nav = page.getByRole("banner").getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link")).toHaveText(["Home", "Pricing", "Downloads", "Log In", "Sign Up"]);
      await expect(nav.getByRole("link", { name: "Pricing" })).toHaveAttribute("aria-current", "page");
    });
  });
});

test.describe("inner pages", () => {
  test("pricing: three tiers with features, limitations and calls to action, and five FAQs", async ({ page }) => {
    await open(page, "/pricing");
    await expect(page).toHaveTitle(/Pricing/);
    const tiers = page.getByRole("article");
    await expect(tiers.getByRole("heading", { level: 2 })).toHaveText(["Free", "Professional", "Partner"]);
    const tier = (name: string) => tiers.filter({ has: page.getByRole("heading", { name, exact: true }) });
    const free = tier("Free");
    await expect(free).toContainText("100 free API calls for testing");
    await expect(free).toContainText("No credit card required");
    await expect(free.getByRole("heading", { name: "Limitations" })).toBeVisible();
    await expect(free.getByRole("link", { name: "Start Free" })).toHaveAttribute("href", "/signup");
    const professional = tier("Professional");
    for (const feature of ["Unlimited API calls", "Custom model training", "One dedicated consulting call", "Priority support", "HIPAA options"]) {
      await expect(professional).toContainText(feature);
    }
    await expect(professional.getByRole("link", { name: "Contact Sales" })).toHaveAttribute("href", "/contact");
    const partner = tier("Partner");
    for (const feature of ["White-label", "Custom branding and domain", "Resale", "Revenue sharing"]) await expect(partner).toContainText(feature);

    const faqs = page.locator("details");
    await expect(faqs).toHaveCount(5);
    const first = faqs.first();
    await expect(first.locator("p")).toBeHidden();
    await first.locator("summary").click();
    await expect(first.locator("p")).toBeVisible();
    await expect(first).toContainText("preserved");
  });

  test("downloads: the People Counter downloads as people-counter.html, three modules are in development", async ({ page }) => {
    await open(page, "/downloads");
    const download = page.getByRole("link", { name: "Download people-counter.html" });
    await expect(download).toHaveAttribute("href", "/people-counter.html");
    await expect(download).toHaveAttribute("download", "people-counter.html");
    await expect(page.getByRole("article").filter({ hasText: "People Counter & Analytics" })).toContainText("Available");
    for (const name of ["Defect Detection Module", "Scoreboard Extraction", "Sentiment Analysis"]) {
      await expect(page.getByRole("article").filter({ hasText: name })).toContainText("In Development");
    }
    await expect(page.getByRole("complementary").getByRole("link", { name: "See pricing" })).toHaveAttribute("href", "/pricing");
  });

  test("EULA: 18 sections in order, today's date, and Back to the home page", async ({ page }) => {
    await open(page, "/eula");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("End User License Agreement");
    await expect(page.getByText(`Last Updated: ${format(new Date(), "MMM d, yyyy")}`)).toBeVisible();
    const headings = page.locator("section > h2");
    await expect(headings).toHaveCount(18);
    const titles = await headings.allTextContents();
    const expectedOrder = [
      /Acceptance/,
      /License Grant/,
      /Accounts/,
      /User Content/,
      /AI .*Accuracy/,
      /Third-Party/,
      /Privacy/,
      /Prohibited/,
      /Intellectual Property/,
      /Warrant/,
      /Liability/,
      /Indemnification/,
      /Camera and Device Control/,
      /Termination/,
      /Changes/,
      /Governing Law/,
      /Entire Agreement/,
      /Contact/,
    ];
    titles.forEach((title, index) => expect(title).toMatch(expectedOrder[index]!));
    await page.getByRole("link", { name: "Back" }).first().click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("about: the collaboration, both partners, a contact e-mail and the experimental notice", async ({ page }) => {
    await open(page, "/about");
    const main = page.getByRole("main");
    await expect(main).toContainText("experimental collaboration between a professional camera maker and the open-source vision-model provider");
    await expect(main.getByRole("heading", { name: "The partners" })).toBeVisible();
    await expect(main.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    await expect(main).toContainText("experimental");
    await expect(main.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/");
  });

  test("contact: both licensing blurbs, 'Contact Sales' by e-mail, and the listed links", async ({ page }) => {
    await open(page, "/contact");
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "Commercial licensing" })).toBeVisible();
    await expect(main.getByRole("heading", { name: "Educational licensing" })).toBeVisible();
    await expect(main.getByRole("link", { name: "Contact Sales" })).toHaveAttribute("href", /^mailto:sales@/);
    await expect(main).toContainText("within one business day");
    const hrefs = await main
      .getByRole("navigation")
      .getByRole("link")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    expect(hrefs).toEqual(["/signup", "/studio", "/login", "/about", "/eula"]);
    await expect(main.getByRole("link", { name: "Try Live Demo" })).toHaveAttribute("href", "/studio");
  });
});

test.describe("links", () => {
  test("every internal link on every public page resolves, and every in-page anchor exists", async ({ page }) => {
    const seen = new Set<string>();
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href")!));
      for (const href of hrefs) {
        if (href.startsWith("#")) {
          await expect(page.locator(href), `${path} links to ${href}`).toHaveCount(1);
          continue;
        }
        if (!href.startsWith("/") || href.startsWith("//")) continue;
        seen.add(href.split("#")[0]!);
      }
    }
    expect([...seen]).toEqual(expect.arrayContaining([...PUBLIC_PAGES, "/login", "/signup", "/studio"]));
    for (const href of seen) {
      const response = await page.request.get(href);
      expect(response.status(), `GET ${href}`).toBeLessThan(400);
    }
  });
});

test.describe("prerendered", () => {
  test("every public page comes from memory with a CSP without a nonce, and its script runs under it", async ({ page }) => {
    const refused: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    for (const path of PUBLIC_PAGES) {
      const response = await page.goto(path);
      const headers = response!.headers();
      expect(headers["etag"], `${path} is the prerendered one`).toBeTruthy();
      expect(headers["content-security-policy"], path).not.toMatch(/nonce|strict-dynamic/);
      await expect(page.locator('[data-enhanced="true"]')).toHaveCount(1);
    }
    expect(refused).toEqual([]);
  });
});

test.describe("coming from the app", () => {
  test("a link on the hydrated sign-in page loads a public page as a whole document, with its script", async ({ page }) => {
    await page.goto("/login");
    // React has hydrated the link once it has attached its fiber to it; a click is then a client-side navigation.
    const eulaLink = page.getByRole("link", { name: "End User License Agreement" });
    await expect.poll(() => eulaLink.evaluate((link) => Object.keys(link).some((key) => key.startsWith("__reactFiber")))).toBe(true);
    await eulaLink.click();
    await expect(page).toHaveURL(/\/eula$/);
    // Rendered by the router in place, the page would stay unenhanced and keep React's context.
    await expect(page.locator('[data-enhanced="true"]')).toHaveCount(1);
    expect(await page.evaluate(() => "__reactRouterContext" in window)).toBe(false);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(page.locator("#mobile-menu")).toBeVisible();
  });

  test("a toast for a public page shows as plain HTML", async ({ page, browser, baseURL }) => {
    const context = await browser.newContext();
    const { username, password } = await signUpInBrowser(await context.newPage());
    await context.close();
    // A plain form post shares the page's cookie jar: it leaves the session and the flash toast's cookie there.
    const signIn = await page.request.post("/login", {
      form: { username, password, redirectTo: "/pricing" },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(signIn.status()).toBe(302);
    expect(signIn.headers()["location"]).toBe("/pricing");
    await page.goto("/pricing");
    await expect(page.getByRole("status").filter({ hasText: "Welcome back!" })).toContainText("You have successfully logged in.");
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the home page shows every section with its animations at their end state", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("hero-sentence").locator("[data-word]").last()).toBeVisible();
    for (const demo of [labDemo, wildlifeDemo]) {
      const stage = page.getByTestId(`demo-${demo.id}`);
      await expect(stage.getByText("Photo Auto-Captured")).toBeVisible();
      for (const box of demo.boxes) await expect(stage.locator(`[data-box="${box.label}"]`)).toBeVisible();
    }
    await expect(page.getByRole("heading", { name: "Built with Moondream" })).toBeVisible();
  });
});
