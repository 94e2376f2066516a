// The library search's state in the page URL (/studio?q=dog&camera=…): a search can be bookmarked, and the back
// button steps through the searches made. Short parameter names in the URL, the API's names in the query.
import type { SearchFilters } from "../../schemas/search";

/** URL parameter → the search field it holds. */
const PARAMS = {
  q: "q",
  label: "label",
  camera: "cameraId",
  mode: "captureMode",
  auto: "autoCapture",
  story: "storyId",
  from: "from",
  to: "to",
  people: "minPeople",
} as const satisfies Record<string, keyof SearchFilters>;

type Param = keyof typeof PARAMS;
const MODES = new Set(["single", "burst", "timelapse"]);

/** The search a URL holds; parameters that make no sense are left out (the API would refuse them). */
export function filtersFromUrl(params: URLSearchParams): SearchFilters {
  const filters: SearchFilters = {};
  for (const [param, field] of Object.entries(PARAMS) as [Param, keyof SearchFilters][]) {
    const value = params.get(param)?.trim();
    if (!value) continue;
    if (field === "autoCapture") {
      if (value === "true" || value === "false") filters.autoCapture = value === "true";
    } else if (field === "minPeople") {
      const n = Number(value);
      if (Number.isInteger(n) && n >= 1 && n <= 100) filters.minPeople = n;
    } else if (field === "captureMode") {
      if (MODES.has(value)) filters.captureMode = value as SearchFilters["captureMode"];
    } else {
      filters[field] = value;
    }
  }
  return filters;
}

/** The URL's parameters for a search, keeping any others the page has. */
export function filtersToUrl(filters: SearchFilters, current: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [param, field] of Object.entries(PARAMS) as [Param, keyof SearchFilters][]) {
    const value = filters[field];
    if (value === undefined || value === "") next.delete(param);
    else next.set(param, String(value));
  }
  return next;
}

/** Whether the URL holds any search at all (else the strip shows the library, newest first). */
export const isSearching = (filters: SearchFilters) => Object.values(filters).some((value) => value !== undefined && value !== "");
