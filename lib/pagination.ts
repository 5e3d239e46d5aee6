/** A list request's page, as `pageParams` (lib/query-params.ts) parses it. */
export interface PageQuery {
  limit: number;
  offset: number;
}

/** A list answer's `data` (`pageSchema` in lib/api/openapi/shared-schemas.ts): every offset-paged list of /v1 and of the pages is cut here. */
export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** A page the store already cut: its items and the total they were cut from. */
export function pageFrom<T>(items: T[], total: number, query: PageQuery): Page<T> {
  return { items, total, limit: query.limit, offset: query.offset, has_more: query.offset + items.length < total };
}

/** A page cut from a whole list (the lists an account keeps short: endpoints, rules, positions). */
export function pageOf<T>(all: readonly T[], query: PageQuery): Page<T> {
  return pageFrom(all.slice(query.offset, query.offset + query.limit), all.length, query);
}
