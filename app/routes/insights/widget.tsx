// /insights/widget/:id?expires=&signature= — the lobby-screen widget of a share link: "312 visitors today" and the
// peak occupancy, on a transparent page that other sites and OBS may frame (server/http/overlay-framing.ts). Rendered
// on the server; its one small script (static: no data in it) reads the shared report again every 30 seconds.
import { db } from "#db/index";
import { orNotFoundPage, widgetFigures } from "#server/insights/sharing/shared-page";
import { brand } from "../../lib/brand";
import { useNonce } from "../../lib/nonce";
import { loadAsDocument, type PageHandle } from "../../lib/static-page";
import type { Route } from "./+types/widget";

export const handle: PageHandle = { hydrate: false };
export const clientLoader = loadAsDocument;

export async function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = { expires: url.searchParams.get("expires") ?? undefined, signature: url.searchParams.get("signature") ?? undefined };
  return orNotFoundPage(() => widgetFigures(db(), params.id, query));
}

export const headers: Route.HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.title} | ${brand.productName}` : brand.productName },
  { name: "robots", content: "noindex, nofollow" },
];

const REFRESH_MS = 30_000;

// Reads the shared report the page's own link opens; numbers are set as text. A failed read keeps the last figures.
const SCRIPT = `
(() => {
  const id = location.pathname.split("/").pop();
  const url = "/api/insights/shared/" + encodeURIComponent(id) + location.search;
  const set = (name, text) => { document.querySelector("[data-widget=" + name + "]").textContent = text; };
  async function refresh() {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) { document.body.dataset.widget = response.status === 404 ? "gone" : "stale"; return; }
      const report = await response.json();
      set("entries", String(report.totals.entries));
      const peak = report.occupancy.peak;
      const time = report.occupancy.peakAt
        ? " at " + new Intl.DateTimeFormat("en-GB", { timeZone: report.timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(report.occupancy.peakAt))
        : "";
      set("peak", peak === null ? "" : "Peak occupancy " + peak + time);
      document.body.dataset.widget = "live";
      document.body.dataset.refreshed = String(Date.now());
    } catch { document.body.dataset.widget = "stale"; }
  }
  setInterval(refresh, ${REFRESH_MS});
})();
`;

export default function Widget({ loaderData: figures }: Route.ComponentProps) {
  const nonce = useNonce();
  return (
    <main className="flex min-h-screen flex-col items-center justify-center p-6 text-center text-white [text-shadow:0_2px_12px_rgba(0,0,0,0.45)]">
      {/* Transparent over whatever frames it (a lobby screen's page, OBS). The app's dark color-scheme would make a
          browser paint an opaque backdrop behind a frame whose embedder's scheme differs. */}
      <style>{"html, body { background: transparent !important; } :root { color-scheme: normal; }"}</style>
      <p className="text-[clamp(1rem,4vw,2rem)] font-medium opacity-90">{figures.title}</p>
      <p className="leading-none font-bold tabular-nums">
        <span data-widget="entries" className="text-[clamp(4rem,22vw,14rem)]">
          {figures.entries}
        </span>
      </p>
      <p className="text-[clamp(1.25rem,5vw,3rem)] font-semibold">{figures.caption}</p>
      <p data-widget="peak" className="mt-3 text-[clamp(1rem,3vw,1.75rem)] opacity-90">
        {figures.peak === null ? "" : `Peak occupancy ${figures.peak}${figures.peakAt ? ` ${figures.peakAt}` : ""}`}
      </p>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />
    </main>
  );
}
