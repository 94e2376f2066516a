// /insights/shared/:id?expires=&signature= — a share link's read-only report: no session, no studio, not indexed.
// Server-rendered only (no hydration, no script): totals, the charts as ECharts SVG drawn on the server, the tables.
import { db } from "#db/index";
import { orNotFoundPage, sharedReportPage } from "#server/insights/sharing/shared-page";
import { brand } from "../../lib/brand";
import { loadAsDocument, type PageHandle } from "../../lib/static-page";
import type { Route } from "./+types/shared";

export const handle: PageHandle = { hydrate: false };
export const clientLoader = loadAsDocument;

export async function loader({ params, request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const query = { expires: url.searchParams.get("expires") ?? undefined, signature: url.searchParams.get("signature") ?? undefined };
  return orNotFoundPage(() => sharedReportPage(db(), params.id, query));
}

export const headers: Route.HeadersFunction = () => ({ "X-Robots-Tag": "noindex, nofollow", "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: loaderData ? `${loaderData.title}, ${loaderData.period} | ${brand.productName}` : brand.productName },
  { name: "robots", content: "noindex, nofollow" },
];

export default function SharedReport({ loaderData: page }: Route.ComponentProps) {
  return (
    <div className="min-h-screen bg-white text-slate-900 [color-scheme:light]">
      <header className="border-b border-slate-200">
        <div className="mx-auto flex max-w-5xl items-baseline justify-between gap-4 px-4 py-3 sm:px-6">
          <p className="font-semibold text-blue-700">
            {brand.productName} <span className="font-normal text-slate-500">{brand.tagline}</span>
          </p>
          <p className="text-sm text-slate-500">Shared read-only report</p>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
        <h1 className="text-3xl font-semibold">{page.title}</h1>
        <p className="mt-1 text-slate-600">
          {page.period} · times in {page.timeZone}
        </p>

        <section aria-label="Totals" className="mt-6 grid grid-cols-2 gap-3 md:grid-cols-4">
          {page.totals.map((total) => (
            <div key={total.label} className="rounded-lg border border-slate-200 bg-slate-50 p-4">
              <p className="text-sm text-slate-600">{total.label}</p>
              <p className="mt-1 text-2xl font-semibold tabular-nums" data-total={total.label}>
                {total.value}
              </p>
              <p className="mt-1 text-xs text-slate-600">{total.note}</p>
            </div>
          ))}
        </section>

        {page.charts.map((chart) => (
          <figure key={chart.title} className="mt-8">
            <figcaption className="text-lg font-semibold">{chart.title}</figcaption>
            {/* ECharts' SVG, drawn on the server from numbers and dates only; the tables below hold the same figures. */}
            <div role="img" aria-label={chart.description} className="mt-2 overflow-x-auto [&_svg]:h-auto [&_svg]:max-w-full" dangerouslySetInnerHTML={{ __html: chart.svg }} />
          </figure>
        ))}

        {page.tables
          .filter((table) => table.rows.length > 0)
          .map((table) => (
            <section key={table.name} className="mt-10" aria-labelledby={`table-${table.name}`}>
              <h2 id={`table-${table.name}`} className="text-lg font-semibold">
                {table.name}
              </h2>
              <div className="mt-2 max-h-[32rem] overflow-auto rounded-lg border border-slate-200" tabIndex={0} role="region" aria-label={`${table.name} table`}>
                <table className="w-full text-sm">
                  <thead className="sticky top-0 bg-slate-100">
                    <tr>
                      {table.columns.map((column) => (
                        <th key={column.header} scope="col" className={`px-3 py-2 font-semibold ${column.numeric ? "text-right" : "text-left"}`}>
                          {column.header}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody>
                    {table.rows.map((row, index) => (
                      <tr key={index} className="border-t border-slate-200">
                        {row.map((cell, column) => (
                          <td key={column} className={`px-3 py-1.5 ${table.columns[column]?.numeric ? "text-right tabular-nums" : ""}`}>
                            {cell}
                          </td>
                        ))}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </section>
          ))}
      </main>
      <footer className="mx-auto max-w-5xl px-4 pb-10 text-sm text-slate-500 sm:px-6">
        “{page.name}”, shared from {brand.productName}. The figures are read when the page opens.
      </footer>
    </div>
  );
}
