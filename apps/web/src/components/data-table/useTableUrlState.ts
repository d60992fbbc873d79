import { TABLE_DEFAULT_PAGE_SIZE, TABLE_PAGE_SIZES } from '@bwc/protocol';
import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { filterNames, isFilterItem, isMultiValued, type FilterValues, type SearchItem } from '../search-bar';

export interface TableUrlState {
  filters: FilterValues;
  page: number;
  limit: number;
  /** Replaces the filters and goes back to page 1. */
  setFilters: (filters: FilterValues) => void;
  /** Changes page and size; a size change goes back to page 1 (spec part 2 section 2.4). */
  setPage: (page: number, limit?: number) => void;
}

function isPageSize(value: number): boolean {
  return (TABLE_PAGE_SIZES as readonly number[]).includes(value);
}

/**
 * Filters, page and page size of one table, kept in the URL so that a view can be shared and
 * survives a reload. `urlKey` prefixes every parameter (`<urlKey>.page`) so that several tables
 * can live on one page. A filter with a default that the user cleared is written as an empty
 * parameter, so that the default does not come back on reload.
 */
export function useTableUrlState(
  items: readonly SearchItem[],
  urlKey?: string,
  defaultFilters: FilterValues = {},
): TableUrlState {
  const [params, setParams] = useSearchParams();
  // The router applies navigations in a transition: a second write before it lands (a click while
  // a slow machine is still rendering the search) must build on the first, not on the stale params.
  const latest = useRef(params);
  const seen = useRef(params);
  if (seen.current !== params) {
    seen.current = params;
    latest.current = params;
  }
  const write = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );
  // Defaults are usually an inline literal: keep one object per content.
  const defaultsKey = JSON.stringify(defaultFilters);
  const defaults = useMemo(() => JSON.parse(defaultsKey) as FilterValues, [defaultsKey]);
  const param = useCallback((name: string) => (urlKey ? `${urlKey}.${name}` : name), [urlKey]);

  // Items are usually an inline literal too: the parameter list is what matters.
  const fieldsKey = items
    .filter(isFilterItem)
    .flatMap((item) => filterNames(item).map((name) => `${name}${isMultiValued(item) ? '[]' : ''}`))
    .join('|');
  const fields = useMemo(
    () =>
      (fieldsKey ? fieldsKey.split('|') : []).map((field) => ({
        name: field.replace(/\[\]$/, ''),
        multi: field.endsWith('[]'),
      })),
    [fieldsKey],
  );

  const filters = useMemo(() => {
    const out: FilterValues = {};
    for (const { name, multi } of fields) {
      const key = param(name);
      if (!params.has(key)) {
        if (defaults[name] !== undefined) out[name] = defaults[name];
        continue;
      }
      const all = params.getAll(key).filter((value) => value !== '');
      if (all.length > 0) out[name] = multi ? all : all[0];
    }
    return out;
  }, [fields, params, param, defaults]);

  const page = Math.max(1, Number.parseInt(params.get(param('page')) ?? '', 10) || 1);
  const requestedLimit = Number.parseInt(params.get(param('limit')) ?? '', 10);
  const limit = isPageSize(requestedLimit) ? requestedLimit : TABLE_DEFAULT_PAGE_SIZE;

  const setFilters = useCallback(
    (next: FilterValues) => {
      write((out) => {
        for (const { name } of fields) {
          const key = param(name);
          out.delete(key);
          const value = next[name];
          const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
          for (const item of values) if (item !== '') out.append(key, item);
          if (!out.has(key) && defaults[name] !== undefined) out.set(key, '');
        }
        out.delete(param('page'));
      });
    },
    [fields, param, write, defaults],
  );

  const setPage = useCallback(
    (nextPage: number, nextLimit?: number) => {
      write((out) => {
        const currentLimit = Number.parseInt(out.get(param('limit')) ?? '', 10);
        const limitNow = isPageSize(currentLimit) ? currentLimit : TABLE_DEFAULT_PAGE_SIZE;
        const sizeChanged = nextLimit !== undefined && nextLimit !== limitNow;
        const pageToSet = sizeChanged ? 1 : nextPage;
        if (pageToSet > 1) out.set(param('page'), String(pageToSet));
        else out.delete(param('page'));
        if (nextLimit !== undefined) {
          if (nextLimit === TABLE_DEFAULT_PAGE_SIZE) out.delete(param('limit'));
          else out.set(param('limit'), String(nextLimit));
        }
      });
    },
    [param, write],
  );

  return { filters, page, limit, setFilters, setPage };
}
