// The Insights page: a top bar back to the studio, then two tabs. "Report": the filter (kept in the URL), Export,
// Share and E-mail reports, the report itself and where people go on one of its cameras. "Sites and services": sites, their windows and attendance.
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { camerasApi } from "../../lib/api/cameras";
import { insightsApi } from "../../lib/api/insights";
import { localVisionApi } from "../../lib/api/local-vision";
import type { CurrentUser } from "../../schemas/auth";
import type { InsightSettings, InsightsReport, ReportFilter } from "../../schemas/insights";
import { Button } from "../ui/button";
import { StudioPageHeader } from "../studio-page-header";
import { Tab, TabsContent, TabsList, TabsRoot } from "../ui/tabs";
import { FilterBar, type FilterChoices } from "./filter-bar";
import { DEFAULT_PERIOD, readFilter, reportQuery, writeFilter, type InsightsFilter } from "./filter";
import { ExportMenu } from "./export-menu";
import { toastError } from "./form-errors";
import { ReportView } from "./report-view";
import { ScheduleDialog } from "./schedule-dialog";
import { SettingsDialog } from "./settings-dialog";
import { ShareDialog } from "./share-dialog";
import { browserTimeZone } from "./site-dialog";
import { SitesPanel } from "./sites-panel";
import { WherePeopleGo } from "./where-people-go";

const NO_CHOICES: FilterChoices = { sites: [], cameras: [], lines: [], zones: [] };

export function InsightsPage({ user }: { user: CurrentUser }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = useMemo(() => readFilter(searchParams), [searchParams]);
  const [settings, setSettings] = useState<InsightSettings | null>(null);
  const [choices, setChoices] = useState<FilterChoices>(NO_CHOICES);
  const [dialog, setDialog] = useState<"settings" | "share" | "email" | null>(null);

  const loadSites = useCallback(async () => {
    const sites = await insightsApi.sites();
    setChoices((current) => ({ ...current, sites }));
  }, []);

  // Settings (the browser's time zone saved on the first visit), sites, and the cameras with their lines and zones.
  useEffect(() => {
    void (async () => {
      try {
        const current = await insightsApi.settings();
        setSettings(current.saved ? current : await insightsApi.saveSettings({ timeZone: browserTimeZone(), minuteRetentionDays: current.minuteRetentionDays }));
        const [sites, cameras] = await Promise.all([insightsApi.sites(), camerasApi.list()]);
        const regions = await Promise.all(cameras.map((c) => Promise.all([localVisionApi.lines(c.id), localVisionApi.zones(c.id)])));
        setChoices({ sites, cameras, lines: regions.flatMap(([lines]) => lines), zones: regions.flatMap(([, zones]) => zones) });
      } catch (error) {
        toastError(error, "Couldn't load Insights");
      }
    })();
  }, []);

  const site = choices.sites.find((s) => s.id === filter.siteId) ?? null;
  const timeZone = site?.timeZone ?? settings?.timeZone ?? null;
  const camerasInScope = choices.cameras.filter((c) => (filter.cameraIds.length ? filter.cameraIds.includes(c.id) : !site || site.cameraIds.includes(c.id)));
  const query = useMemo(() => (timeZone ? reportQuery(filter, timeZone, new Date()) : null), [filter, timeZone]);
  const setFilter = (next: InsightsFilter) => setSearchParams(writeFilter(next), { preventScrollReset: true });

  const view: ReportFilter = { siteId: filter.siteId ?? undefined, cameraIds: filter.cameraIds, lineIds: filter.lineIds, zoneIds: filter.zoneIds, labels: filter.labels };
  const title = site?.name ?? "Insights report";

  return (
    <div className="min-h-dvh bg-ink-950">
      <StudioPageHeader user={user} onSettings={settings ? () => setDialog("settings") : undefined} />
      <main className="mx-auto max-w-7xl space-y-4 p-3 sm:p-5">
        <h1 className="text-xl font-semibold text-white">Insights</h1>
        <TabsRoot defaultValue="report">
          <TabsList label="Insights">
            <Tab value="report">Report</Tab>
            <Tab value="sites">Sites and services</Tab>
          </TabsList>
          {/* Kept mounted while the sites tab shows, so coming back shows the report at once instead of loading it again. */}
          <TabsContent value="report" forceMount className="space-y-4 pt-4 data-[state=inactive]:hidden">
            <FilterBar filter={filter} dates={query ?? { from: "", to: "" }} choices={choices} onChange={setFilter} />
            <div className="flex flex-wrap gap-2">
              {query ? <ExportMenu query={query} /> : null}
              <Button variant="secondary" onClick={() => setDialog("share")}>
                Share
              </Button>
              <Button variant="secondary" onClick={() => setDialog("email")}>
                E-mail reports
              </Button>
            </div>
            {query ? <Report query={query} /> : <p className="text-sm text-slate-400">Loading...</p>}
            {query && timeZone ? <WherePeopleGo cameras={camerasInScope} from={query.from} to={query.to} timeZone={timeZone} /> : null}
          </TabsContent>
          <TabsContent value="sites" className="pt-4">
            <SitesPanel sites={choices.sites} cameras={choices.cameras} lines={choices.lines} onSitesChanged={loadSites} />
          </TabsContent>
        </TabsRoot>
      </main>
      {settings && dialog === "settings" ? <SettingsDialog settings={settings} open onOpenChange={(open) => !open && setDialog(null)} onSaved={setSettings} /> : null}
      {dialog === "share" ? (
        <ShareDialog open onOpenChange={(open) => !open && setDialog(null)} view={view} period={filter.period === "custom" ? DEFAULT_PERIOD : filter.period} title={title} />
      ) : null}
      {dialog === "email" ? <ScheduleDialog open onOpenChange={(open) => !open && setDialog(null)} view={view} title={title} /> : null}
    </div>
  );
}

/** Loads the report for the query (a newer query abandons the older call) and shows it; the last one stays while the next loads. */
function Report({ query }: { query: ReturnType<typeof reportQuery> }) {
  const [loaded, setLoaded] = useState<{ key: string; report: InsightsReport } | null>(null);
  const [failed, setFailed] = useState(false);
  const key = JSON.stringify(query);
  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    insightsApi
      .report(JSON.parse(key) as typeof query, controller.signal)
      .then((report) => setLoaded({ key, report }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        toastError(error, "Couldn't load the report");
      });
    return () => controller.abort();
  }, [key]);
  if (failed) return <p className="text-sm text-slate-400">The report could not be loaded.</p>;
  if (!loaded) return <p className="text-sm text-slate-400">Loading report...</p>;
  const { report } = loaded;
  return (
    <section aria-label={`Report: ${report.title}`} aria-busy={loaded.key !== key}>
      <h2 className="mb-3 text-base font-semibold text-white" data-testid="report-title">
        {report.title}
      </h2>
      <ReportView report={report} />
    </section>
  );
}
