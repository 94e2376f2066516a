// The Photos tab's search (desktop bottom bar and the phone's Photos sheet): a search box, facets with counts that
// narrow as you type, the result count, highlighted words, and the results in a strip that open in the gallery.
// The search lives in the page URL (app/studio/capture/search-url.ts): bookmarkable, and the back button works.
// With no search, the tab shows the library strip as before.
import { useEffect, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { errorDetail, isAbort } from "../../lib/api/errors";
import { searchApi } from "../../lib/api/search";
import type { Photo } from "../../schemas/photos";
import type { HighlightSegment, PhotoSearchResult, SearchFacets, SearchFilters } from "../../schemas/search";
import { filtersFromUrl, filtersToUrl, isSearching } from "../../studio/capture/search-url";
import { GalleryModal } from "./gallery-modal";
import { PhotoStrip } from "./photo-strip";
import { SavedSearches } from "./saved-searches";

const PAGE = 30;
/** Typing settles for this long before the search (and the URL) follows it. */
const TYPING_MS = 300;

type Results = Pick<PhotoSearchResult, "items" | "total" | "facets" | "corrections" | "nextCursor">;

function toQuery(filters: SearchFilters, cursor?: string) {
  const { autoCapture, ...rest } = filters;
  return { ...rest, ...(autoCapture === undefined ? {} : { autoCapture: String(autoCapture) as "true" | "false" }), limit: PAGE, ...(cursor ? { cursor } : {}) };
}

/** The results of the URL's search, loaded again whenever it changes; `more` loads the next page. */
function useSearchResults(filters: SearchFilters, active: boolean) {
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const key = JSON.stringify(filters);
  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    searchApi.photos(toQuery(filters), controller.signal).then(
      (answer) => {
        setResults(answer);
        setError(null);
      },
      (failure: unknown) => {
        if (!isAbort(failure)) setError(errorDetail(failure, "The search failed; try again."));
      },
    );
    return () => controller.abort();
    // `key` stands for `filters`: a new object with the same search is no new search.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, active]);
  const more = async () => {
    if (!results?.nextCursor) return;
    setLoadingMore(true);
    try {
      const next = await searchApi.photos(toQuery(filters, results.nextCursor));
      setResults({ ...results, items: [...results.items, ...next.items], nextCursor: next.nextCursor });
    } catch (failure) {
      setError(errorDetail(failure, "The search failed; try again."));
    } finally {
      setLoadingMore(false);
    }
  };
  const removePhoto = (id: string) =>
    setResults((current) => (current ? { ...current, items: current.items.filter((hit) => hit.photo.id !== id), total: current.total - 1 } : current));
  return { results: active ? results : null, error, more, loadingMore, removePhoto };
}

export function PhotoSearch() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersFromUrl(params), [params]);
  const [text, setText] = useState(filters.q ?? "");
  const [showFilters, setShowFilters] = useState(false);
  const searching = isSearching(filters);
  const active = searching || showFilters;
  const { results, error, more, loadingMore, removePhoto } = useSearchResults(filters, active);

  // Each change is a history entry, so Back returns to the search before it.
  const update = (patch: Partial<SearchFilters>) => setParams(filtersToUrl({ ...filters, ...patch }, params));
  // The box follows the URL (Back, a bookmark); typing goes to the URL once it settles.
  useEffect(() => setText(filters.q ?? ""), [filters.q]);
  useEffect(() => {
    if (text.trim() === (filters.q ?? "")) return;
    const timer = setTimeout(() => update({ q: text.trim() || undefined }), TYPING_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text]);

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="photo-search">
      <div className="flex flex-wrap items-center gap-2 px-2 pt-2">
        <input
          type="search"
          aria-label="Search photos"
          placeholder='Search photos: dog, "red car", -night'
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => event.key === "Enter" && update({ q: text.trim() || undefined })}
          className="w-64 max-w-full rounded-md border border-ink-700 bg-ink-950 px-2 py-1 text-sm text-slate-100 placeholder:text-slate-500 focus:border-brand-400 focus:outline-none"
        />
        <button
          type="button"
          aria-pressed={active}
          onClick={() => setShowFilters((shown) => !shown)}
          className="rounded px-2 py-1 text-xs text-slate-300 hover:text-white aria-pressed:text-brand-400"
        >
          Filters
        </button>
        {searching ? (
          <>
            <span className="text-xs text-slate-300" data-testid="search-count" aria-live="polite">
              {results ? `${results.total} ${results.total === 1 ? "photo" : "photos"}` : "Searching..."}
            </span>
            {results?.corrections.length ? (
              <span className="text-xs text-slate-400" data-testid="search-corrections">
                Showing results for {results.corrections.map((c) => c.to).join(", ")}
              </span>
            ) : null}
            <button type="button" onClick={() => setParams(filtersToUrl({}, params))} className="text-xs text-slate-400 hover:text-white">
              Clear
            </button>
          </>
        ) : null}
        <SavedSearches filters={filters} onOpen={(saved) => setParams(filtersToUrl(saved, filtersToUrl({}, params)))} />
        {filters.q ? (
          <Link to={`/studio/timeline?q=${encodeURIComponent(filters.q)}`} className="text-xs text-brand-400 hover:underline">
            Search events in the timeline
          </Link>
        ) : null}
      </div>
      {active && results?.facets ? <Facets facets={results.facets} filters={filters} onChange={update} /> : null}
      {error ? (
        <p role="alert" className="px-2 text-xs text-red-400">
          {error}
        </p>
      ) : null}
      <div className="min-h-0 flex-1">
        {searching ? results ? <ResultStrip results={results} onMore={() => void more()} loadingMore={loadingMore} onDeleted={removePhoto} /> : null : <PhotoStrip />}
      </div>
    </div>
  );
}

const selectClass = "max-w-40 rounded border border-ink-700 bg-ink-950 px-1 py-0.5 text-xs text-slate-200";

/** One facet as a select: "Any" and each value with its count among the matches. */
function FacetSelect({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: { value: string; label: string; count: number }[];
  onChange: (value: string | undefined) => void;
}) {
  // The chosen value stays listed even when the other filters leave it no match.
  const listed = value && !options.some((o) => o.value === value) ? [...options, { value, label: value, count: 0 }] : options;
  return (
    <select aria-label={label} value={value} onChange={(event) => onChange(event.target.value || undefined)} className={selectClass}>
      <option value="">{label}: any</option>
      {listed.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label} ({option.count})
        </option>
      ))}
    </select>
  );
}

function Facets({ facets, filters, onChange }: { facets: SearchFacets; filters: SearchFilters; onChange: (patch: Partial<SearchFilters>) => void }) {
  return (
    <div className="flex flex-wrap items-center gap-1.5 px-2 pt-1.5" data-testid="search-facets">
      <FacetSelect
        label="Object"
        value={filters.label ?? ""}
        options={facets.labels.map((f) => ({ value: f.value, label: f.value, count: f.count }))}
        onChange={(label) => onChange({ label })}
      />
      <FacetSelect
        label="Camera"
        value={filters.cameraId ?? ""}
        options={facets.cameras.map((f) => ({ value: f.id, label: f.name ?? "Unnamed camera", count: f.count }))}
        onChange={(cameraId) => onChange({ cameraId })}
      />
      <FacetSelect
        label="Capture mode"
        value={filters.captureMode ?? ""}
        options={facets.captureModes.map((f) => ({ value: f.value, label: f.value, count: f.count }))}
        onChange={(mode) => onChange({ captureMode: mode as SearchFilters["captureMode"] })}
      />
      <FacetSelect
        label="Auto-captured"
        value={filters.autoCapture === undefined ? "" : String(filters.autoCapture)}
        options={facets.autoCapture.map((f) => ({ value: String(f.value), label: f.value ? "auto-captured" : "taken by hand", count: f.count }))}
        onChange={(auto) => onChange({ autoCapture: auto === undefined ? undefined : auto === "true" })}
      />
      <FacetSelect
        label="Story"
        value={filters.storyId ?? ""}
        options={facets.stories.map((f) => ({ value: f.id, label: f.title, count: f.count }))}
        onChange={(storyId) => onChange({ storyId })}
      />
      <FacetSelect
        label="People"
        value={filters.minPeople ? String(filters.minPeople) : ""}
        options={facets.people.filter((f) => f.count > 0).map((f) => ({ value: String(f.min), label: `≥ ${f.min}`, count: f.count }))}
        onChange={(min) => onChange({ minPeople: min ? Number(min) : undefined })}
      />
      <label className="text-xs text-slate-400">
        From <input type="date" aria-label="From" value={filters.from ?? ""} onChange={(event) => onChange({ from: event.target.value || undefined })} className={selectClass} />
      </label>
      <label className="text-xs text-slate-400">
        To <input type="date" aria-label="To" value={filters.to ?? ""} onChange={(event) => onChange({ to: event.target.value || undefined })} className={selectClass} />
      </label>
      {facets.months.length > 1 ? (
        <span className="text-[11px] text-slate-500" data-testid="search-months">
          {facets.months.map((m) => `${m.value}: ${m.count}`).join(" · ")}
        </span>
      ) : null}
    </div>
  );
}

function ResultStrip({ results, onMore, loadingMore, onDeleted }: { results: Results; onMore: () => void; loadingMore: boolean; onDeleted: (id: string) => void }) {
  const [openIndex, setOpenIndex] = useState<number | null>(null);
  const photos: Photo[] = results.items.map((hit) => hit.photo);
  if (results.items.length === 0) return <p className="p-3 text-sm text-slate-400">No photos match this search</p>;
  return (
    <>
      <ul className="flex h-full items-start gap-2 overflow-x-auto p-2" aria-label="Search results">
        {results.items.map((hit, index) => (
          <li key={hit.photo.id} className="w-36 shrink-0" data-testid="search-result" data-photo-id={hit.photo.id}>
            <button
              type="button"
              onClick={() => setOpenIndex(index)}
              className="block h-20 w-full overflow-hidden rounded-md border border-ink-700 hover:border-brand-400"
              aria-label={`Open photo from ${new Date(hit.photo.createdAt).toLocaleString()}`}
            >
              <img src={hit.photo.thumbnailUrl} alt="" loading="lazy" className="h-full w-full object-cover" />
            </button>
            <Highlight segments={hit.highlight} fallback={hit.photo.detectionQuery ?? hit.photo.cameraName ?? ""} />
          </li>
        ))}
        {results.nextCursor ? (
          <li>
            <button
              type="button"
              disabled={loadingMore}
              onClick={onMore}
              className="border-ink-600 h-20 w-24 rounded-md border border-dashed text-xs text-slate-400 hover:text-white"
            >
              {loadingMore ? "Loading..." : "Load more"}
            </button>
          </li>
        ) : null}
      </ul>
      <GalleryModal photos={photos} index={openIndex} onIndexChange={setOpenIndex} onDeleted={onDeleted} />
    </>
  );
}

/** The caption with the search's words marked: text nodes only, never HTML from the server. */
function Highlight({ segments, fallback }: { segments: HighlightSegment[]; fallback: string }) {
  if (segments.length === 0) return <p className="mt-1 line-clamp-2 text-[11px] text-slate-500">{fallback}</p>;
  return (
    <p className="mt-1 line-clamp-2 text-[11px] text-slate-300" data-testid="search-highlight">
      {segments.map((segment, index) =>
        segment.match ? (
          <mark key={index} className="rounded bg-amber-400/80 px-0.5 text-black">
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </p>
  );
}
