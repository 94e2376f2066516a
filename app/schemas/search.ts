// Library search: the query and facets (GET /api/photos/search), its page of ranked results with highlighted words
// and facet counts, and saved searches that fire a webhook or alert when a newly saved photo matches.
import { z } from "zod";
import { booleanQuerySchema, dateTimeSchema, requiredText, uuidSchema } from "./common";
import { captureModeSchema, photoSchema } from "./photos";

/** A day (2026-11-29) or a full date-time; a bare day means that whole day in UTC for `to`. */
const dayOrTimeSchema = z
  .string()
  .trim()
  .refine((value) => /^\d{4}-\d{2}-\d{2}$/.test(value) || dateTimeSchema.safeParse(value).success, "must be a date (YYYY-MM-DD) or an ISO 8601 date-time")
  .refine((value) => !Number.isNaN(new Date(value).getTime()), "must be a real date");

/** The words and facets of a search, as saved (typed values). */
export const searchFiltersSchema = z.object({
  q: z
    .string()
    .trim()
    .max(200, "the search must be at most 200 characters")
    .optional()
    .describe('words, "quoted phrases", -exclusions and OR (PostgreSQL websearch_to_tsquery); a word that matches nothing is read as its nearest spelling'),
  label: z.string().trim().toLowerCase().min(1).max(200, "label must be at most 200 characters").optional().describe("a detected object or class, e.g. dog"),
  cameraId: uuidSchema.optional(),
  captureMode: captureModeSchema.optional(),
  autoCapture: z.boolean().optional(),
  storyId: uuidSchema.optional(),
  from: dayOrTimeSchema.optional().describe("taken at or after (a day: from its start, UTC)"),
  to: dayOrTimeSchema.optional().describe("taken at or before (a day: to its end, UTC)"),
  minPeople: z.number().int().min(1, "minPeople must be at least 1").max(100, "minPeople must be at most 100").optional().describe("at least this many person boxes"),
});
export type SearchFilters = z.infer<typeof searchFiltersSchema>;

/** The same as query parameters (strings coerced), with the page's size and cursor. */
export const photoSearchQuerySchema = searchFiltersSchema.extend({
  autoCapture: booleanQuerySchema.optional(),
  minPeople: z.coerce
    .number({ error: "minPeople must be a number" })
    .int("minPeople must be a whole number")
    .min(1, "minPeople must be at least 1")
    .max(100, "minPeople must be at most 100")
    .optional(),
  limit: z.coerce
    .number({ error: "limit must be a number" })
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(100, "limit must be at most 100")
    .default(30),
  cursor: z.string().max(300, "cursor is not valid").optional(),
});
export type PhotoSearchQuery = z.infer<typeof photoSearchQuerySchema>;

/** A run of text from ts_headline: `match` marks a word the search found. Plain text, never HTML. */
export const highlightSegmentSchema = z.object({ text: z.string(), match: z.boolean() });
export type HighlightSegment = z.infer<typeof highlightSegmentSchema>;

export const searchHitSchema = z.object({
  photo: photoSchema,
  rank: z.number().describe("ts_rank_cd of the photo's text for the words (0 without words)"),
  highlight: z.array(highlightSegmentSchema).describe("the photo's caption or description with the matching words marked; empty when it has none"),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

const facetCount = <Shape extends z.ZodRawShape>(shape: Shape) => z.array(z.object({ ...shape, count: z.number().int() }));

/** Counts among the matches; each facet's counts ignore that facet's own filter, so choosing one value keeps the others in view. */
export const searchFacetsSchema = z.object({
  labels: facetCount({ value: z.string() }),
  cameras: facetCount({ id: uuidSchema, name: z.string().nullable() }),
  captureModes: facetCount({ value: captureModeSchema }),
  autoCapture: facetCount({ value: z.boolean() }),
  stories: facetCount({ id: uuidSchema, title: z.string() }),
  months: facetCount({ value: z.string().describe("YYYY-MM, UTC") }),
  people: facetCount({ min: z.number().int().describe("photos with at least this many people") }),
});
export type SearchFacets = z.infer<typeof searchFacetsSchema>;

export const photoSearchResultSchema = z.object({
  items: z.array(searchHitSchema),
  total: z.number().int().describe("matches of the whole search (all pages)"),
  nextCursor: z.string().nullable().describe("the next page; pages keep the first page's moment, so photos saved meanwhile are not mixed in"),
  facets: searchFacetsSchema.nullable().describe("counted on the first page; null on the pages after it, whose matches are the first page's"),
  corrections: z.array(z.object({ from: z.string(), to: z.string() })).describe("misspelt words read as their nearest indexed spelling"),
});
export type PhotoSearchResult = z.infer<typeof photoSearchResultSchema>;

export const savedSearchCreateSchema = z
  .object({
    name: requiredText("Name", 100),
    query: searchFiltersSchema,
    notifyWebhook: z.boolean().default(false),
    notifyEmail: z.boolean().default(false),
    notifySms: z.boolean().default(false),
  })
  .refine((input) => Object.values(input.query).some((value) => value !== undefined && value !== ""), {
    message: "Search for some words or choose a facet first",
    path: ["query"],
  });
export type SavedSearchCreate = z.infer<typeof savedSearchCreateSchema>;

export const savedSearchSchema = z.object({
  id: uuidSchema,
  name: z.string(),
  query: searchFiltersSchema,
  notifyWebhook: z.boolean(),
  notifyEmail: z.boolean(),
  notifySms: z.boolean(),
  createdAt: dateTimeSchema,
});
export type SavedSearch = z.infer<typeof savedSearchSchema>;
