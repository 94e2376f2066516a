// The events timeline: a top bar back to the studio, the day strip per camera, the filters and search (kept in the
// URL), and the events newest first with "Load more" by cursor. ↑/↓ or j/k move the selection, Enter opens the event
// (its photo, description and download), Escape closes it.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { camerasApi } from "../../lib/api/cameras";
import { timelineApi } from "../../lib/api/timeline";
import type { CurrentUser } from "../../schemas/auth";
import type { Camera } from "../../schemas/cameras";
import type { TimelineEvent, TimelineSettings } from "../../schemas/timeline";
import { Button } from "../ui/button";
import { StudioPageHeader } from "../studio-page-header";
import { toastError } from "../insights/form-errors";
import { DayStrip } from "./day-strip";
import { EventDialog } from "./event-dialog";
import { EventList } from "./event-list";
import { listQuery, readFilter, today, toLocalInput, writeFilter, type TimelineFilter } from "./filter";
import { FilterBar } from "./filter-bar";
import { RetentionDialog } from "./retention-dialog";

/** How often the newest events are asked for again while the page shows them. */
const LIVE_REFRESH_MS = 5000;

interface Loaded {
  key: string;
  events: TimelineEvent[];
  nextCursor: string | null;
  searchedFor: string | null;
}

/** Keys typed into a field are the field's, not the list's. */
const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

export function TimelinePage({ user }: { user: CurrentUser }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filter = useMemo(() => readFilter(searchParams), [searchParams]);
  const setFilter = useCallback((next: TimelineFilter) => setSearchParams(writeFilter(next), { preventScrollReset: true }), [setSearchParams]);
  const [cameras, setCameras] = useState<Camera[]>([]);
  const [settings, setSettings] = useState<TimelineSettings | null>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  const [reloads, setReloads] = useState(0);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [opened, setOpened] = useState<TimelineEvent | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  /** A strip mark's event, selected once the list that holds it has loaded. */
  const pendingSelect = useRef<string | null>(null);
  const timeZone = useMemo(() => Intl.DateTimeFormat().resolvedOptions().timeZone, []);

  useEffect(() => {
    camerasApi.list().then(setCameras, (error: unknown) => toastError(error, "Couldn't load the cameras"));
    timelineApi.settings().then(setSettings, () => {});
  }, []);

  const query = useMemo(() => listQuery(filter), [filter]);
  const key = JSON.stringify(query);
  useEffect(() => {
    const controller = new AbortController();
    setFailed(false);
    timelineApi
      .list(JSON.parse(key) as typeof query, controller.signal)
      .then((page) => {
        setLoaded({ key, ...page });
        const wanted = pendingSelect.current;
        pendingSelect.current = null;
        setSelectedId((current) =>
          wanted && page.events.some((e) => e.id === wanted) ? wanted : page.events.some((e) => e.id === current) ? current : (page.events[0]?.id ?? null),
        );
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setFailed(true);
        toastError(error, "Couldn't load the events");
      });
    return () => controller.abort();
  }, [key, reloads]);

  // Events appear as they land: while the page is visible and shows the newest events (no "to" bound), the first page
  // is asked again every LIVE_REFRESH_MS and the events not shown yet go on top (the whole list is replaced when all of
  // the first page is new, so no gap is left between them and what was shown). The strip is redrawn with them.
  const [stripRefreshes, setStripRefreshes] = useState(0);
  const showsNewest = loaded?.key === key && !filter.to;
  useEffect(() => {
    if (!showsNewest) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== "visible") return;
      timelineApi.list(JSON.parse(key) as typeof query).then(
        (page) =>
          setLoaded((current) => {
            if (!current || current.key !== key) return current;
            const shown = new Set(current.events.map((event) => event.id));
            const landed = page.events.filter((event) => !shown.has(event.id));
            if (landed.length === 0) return current;
            setStripRefreshes((n) => n + 1);
            return landed.length === page.events.length ? { key, ...page } : { ...current, events: [...landed, ...current.events] };
          }),
        () => {}, // a missed refresh is retried at the next tick
      );
    }, LIVE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [key, showsNewest]);

  const events = useMemo(() => loaded?.events ?? [], [loaded]);
  const loadMore = async () => {
    if (!loaded?.nextCursor) return;
    setLoadingMore(true);
    try {
      const page = await timelineApi.list({ ...query, cursor: loaded.nextCursor });
      setLoaded({ ...loaded, events: [...loaded.events, ...page.events], nextCursor: page.nextCursor });
    } catch (error) {
      toastError(error, "Couldn't load more events");
    } finally {
      setLoadingMore(false);
    }
  };

  // The strip's mark: select its event here, or show the list up to it (with the filters kept) and select it there.
  const selectFromStrip = (eventId: string, eventAt: string) => {
    if (events.some((event) => event.id === eventId)) return setSelectedId(eventId);
    pendingSelect.current = eventId;
    setFilter({ ...filter, from: "", to: toLocalInput(new Date(new Date(eventAt).getTime() + 1000)) });
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (opened || settingsOpen || typing(e.target) || e.altKey || e.ctrlKey || e.metaKey || events.length === 0) return;
      const index = events.findIndex((event) => event.id === selectedId);
      if (e.key === "ArrowDown" || e.key === "j") {
        e.preventDefault();
        setSelectedId(events[Math.min(events.length - 1, index + 1)]!.id);
      } else if (e.key === "ArrowUp" || e.key === "k") {
        e.preventDefault();
        setSelectedId(events[Math.max(0, index - 1)]!.id);
      } else if (e.key === "Enter" && index >= 0 && !(e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement)) {
        e.preventDefault();
        setOpened(events[index]!);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [events, selectedId, opened, settingsOpen]);

  const filtered = Boolean(filter.cameraId || filter.type || filter.label || filter.from || filter.to || filter.q);

  return (
    <div className="min-h-dvh bg-ink-950">
      <StudioPageHeader user={user} onSettings={settings ? () => setSettingsOpen(true) : undefined} />
      <main className="mx-auto max-w-5xl space-y-4 p-3 sm:p-5">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h1 className="text-xl font-semibold text-white">Timeline</h1>
          {settings ? <p className="text-xs text-slate-400">Events are kept for {settings.retentionDays} days.</p> : null}
        </div>
        <DayStrip
          date={filter.day ?? today()}
          timeZone={timeZone}
          refreshKey={reloads + stripRefreshes}
          onDateChange={(day) => setFilter({ ...filter, day })}
          onSelect={selectFromStrip}
        />
        <FilterBar filter={filter} cameras={cameras} onChange={setFilter} />
        {loaded?.searchedFor && loaded.searchedFor !== filter.q.trim() ? (
          <p className="text-sm text-slate-400">
            Showing results for <span className="text-slate-200">{loaded.searchedFor}</span>
          </p>
        ) : null}
        {failed ? (
          <div role="alert" className="space-y-2 rounded-lg border border-red-900 bg-red-950/40 p-4 text-sm text-red-200">
            <p>The events could not be loaded.</p>
            <Button variant="secondary" onClick={() => setReloads((n) => n + 1)}>
              Try again
            </Button>
          </div>
        ) : !loaded ? (
          <p className="text-sm text-slate-400">Loading events...</p>
        ) : events.length === 0 ? (
          <div className="rounded-lg border border-dashed border-ink-700 p-8 text-center text-sm text-slate-400">
            {filtered ? "No events match these filters." : "No events yet. Lines, zones, auto-captures, monitors and alerts show up here as they happen."}
          </div>
        ) : (
          <>
            <p className="sr-only" aria-live="polite">
              {events.length} events shown
            </p>
            <EventList events={events} selectedId={selectedId} onSelect={setSelectedId} onOpen={setOpened} />
            {loaded.nextCursor ? (
              <div className="flex justify-center">
                <Button variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
                  {loadingMore ? "Loading..." : "Load more"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </main>
      {opened ? <EventDialog event={opened} onClose={() => setOpened(null)} /> : null}
      {settings && settingsOpen ? <RetentionDialog settings={settings} onClose={() => setSettingsOpen(false)} onSaved={setSettings} /> : null}
    </div>
  );
}
