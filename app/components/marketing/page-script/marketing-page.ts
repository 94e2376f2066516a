// The one script of the public pages, which the browser runs instead of React (they are not hydrated;
// see ../static-page.ts): it makes the server-rendered widgets work. Every widget enhances markup that
// already reads correctly without it, and the page marks itself enhanced when its controls respond.
import { all } from "./dom";
import { enhanceCarousel } from "./carousel";
import { enhanceDemo } from "./demo";
import { enhanceMenu } from "./menu";
import { enhanceReveal } from "./reveal";
import { enhanceTabs } from "./tabs";

all<HTMLButtonElement>(document, "[data-menu-toggle]").forEach(enhanceMenu);
all(document, "[data-reveal]").forEach(enhanceReveal);
all(document, "[data-carousel]").forEach(enhanceCarousel);
all(document, "[data-tabs]").forEach(enhanceTabs);
all(document, "[data-demo]").forEach(enhanceDemo);
all(document, "[data-enhanced]").forEach((element) => (element.dataset.enhanced = "true"));
