import { z } from "zod";

// The console's long lists (tenants, keys, ...) are paged, searched, filtered and sorted on
// the server from the page's address: ?q=&sort=&dir=&page=&size= plus each list's filters.
// Bad input never fails the page: each bad field is named in an error and its default is
// used instead. A page past the end is clamped to the last page by the reader (pageWindow).

export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;
/** longer searches are refused: no name, slug or key prefix is this long */
export const MAX_SEARCH = 100;

export type SortDir = "asc" | "desc";

export type RawParams = Record<string, string | string[] | undefined>;

export interface ParamError {
  field: string;
  message: string;
}

export interface ListParams<S extends string> {
  q: string;
  sort: S;
  dir: SortDir;
  /** 1-based, not yet clamped to the last page */
  page: number;
  size: number;
}

/** The first value of a query parameter, trimmed; empty means absent. */
export function firstParam(params: RawParams, name: string): string | undefined {
  const value = params[name];
  const text = (Array.isArray(value) ? value[0] : value)?.trim();
  return text === undefined || text === "" ? undefined : text;
}

const Page = z
  .string()
  .regex(/^\d+$/, "page must be a whole number from 1")
  // a page number beyond any list is as good as the last page: clamped later
  .transform((s) => Math.max(1, Math.min(Number(s.slice(0, 12)), 1e9)));

const Size = z
  .string()
  .refine((s) => PAGE_SIZES.map(String).includes(s), `size must be one of ${PAGE_SIZES.join(", ")}`)
  .transform(Number);

const Search = z.string().max(MAX_SEARCH, `q is at most ${MAX_SEARCH} characters`);

const Dir = z.enum(["asc", "desc"], { error: "dir must be asc or desc" });

/** One optional field: its parsed value, or the default with the field's error noted. */
export function field<T>(
  params: RawParams,
  name: string,
  schema: z.ZodType<T, string>,
  fallback: T,
  errors: ParamError[],
): T {
  const text = firstParam(params, name);
  if (text === undefined) return fallback;
  const parsed = schema.safeParse(text);
  if (parsed.success) return parsed.data;
  errors.push({ field: name, message: parsed.error.issues[0]?.message ?? `${name} is not valid` });
  return fallback;
}

/**
 * The paging, search and sort of a list. `sorts` are the columns it sorts by, each with the
 * direction it first sorts in (text A to Z, numbers highest first).
 */
export function listParams<S extends string>(
  params: RawParams,
  sorts: Readonly<Record<S, SortDir>>,
  defaultSort: S,
  errors: ParamError[],
): ListParams<S> {
  const names = Object.keys(sorts) as S[];
  const Sort = z
    .string()
    .refine((s): s is S => (names as string[]).includes(s), `sort must be one of ${names.join(", ")}`)
    .transform((s) => s as S);
  const sort = field(params, "sort", Sort, defaultSort, errors);
  return {
    q: field(params, "q", Search, "", errors),
    sort,
    dir: field(params, "dir", Dir, sorts[sort], errors),
    page: field(params, "page", Page, 1, errors),
    size: field(params, "size", Size, DEFAULT_PAGE_SIZE, errors),
  };
}

export interface PageWindow {
  page: number;
  pages: number;
  offset: number;
}

/** The page actually shown: at least 1, at most the last (a list of 0 rows has one empty page). */
export function pageWindow(total: number, page: number, size: number): PageWindow {
  const pages = Math.max(1, Math.ceil(total / size));
  const shown = Math.min(Math.max(1, page), pages);
  return { page: shown, pages, offset: (shown - 1) * size };
}

/** A search text as an ILIKE pattern matching it anywhere, its wildcards taken literally. */
export function containsPattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
