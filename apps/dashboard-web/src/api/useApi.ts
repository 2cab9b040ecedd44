import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from './client';
import { buildQuery, type QueryValue } from './query';

export interface ApiState<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

function toApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, 'unexpected_error', error instanceof Error ? error.message : String(error));
}

/** GETs `path` (relative to /api) whenever it changes; `null` skips. Keeps old data while reloading. */
export function useApi<T>(path: string | null): ApiState<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setLoading(true);
    api
      .get<T>(path, { signal: controller.signal })
      .then((answer) => {
        setData(answer);
        setError(undefined);
      })
      .catch((caught: unknown) => {
        if (controller.signal.aborted) return;
        setError(toApiError(caught));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [path, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Runs a mutation, tracking busy state and the last error for an alert. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const run = useCallback(async <R,>(action: () => Promise<R>): Promise<R | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action();
    } catch (caught) {
      setError(toApiError(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  /** Like run, for actions without an answer (204): true when it succeeded. */
  const attempt = useCallback(
    async (action: () => Promise<unknown>): Promise<boolean> => {
      let ok = false;
      await run(async () => {
        await action();
        ok = true;
      });
      return ok;
    },
    [run],
  );
  return { busy, error, setError, run, attempt };
}

/** A list read newest first a page at a time, as `{ items, nextCursor }` answers it. */
export interface CursorPages<T> {
  /** Every page shown so far. */
  rows: T[];
  page: ApiState<{ items: T[]; nextCursor: string | null }>;
  /** Shows the next page too; null on the last one. */
  more: (() => void) | null;
  /** Back to the first page, read afresh (after a change to the list). */
  restart: () => void;
}

/** GETs `path` with `params`, then the pages after it on request; starts again whenever they change. */
export function useCursorPages<T>(path: string, params: Record<string, QueryValue> = {}): CursorPages<T> {
  const list = `${path}${buildQuery(params)}`;
  const [state, setState] = useState<{ list: string; cursor: string | null; earlier: T[] }>({ list, cursor: null, earlier: [] });
  const current = state.list === list ? state : { list, cursor: null, earlier: [] };
  const page = useApi<{ items: T[]; nextCursor: string | null }>(`${path}${buildQuery({ ...params, cursor: current.cursor })}`);
  // While the next page loads, the answer held is still the page before it, which `earlier` already has.
  const rows = page.loading && current.cursor !== null ? current.earlier : [...current.earlier, ...(page.data?.items ?? [])];
  const next = page.data?.nextCursor ?? null;
  return {
    rows,
    page,
    more: next === null ? null : () => setState({ list, cursor: next, earlier: rows }),
    restart: () => {
      setState({ list, cursor: null, earlier: [] });
      page.reload();
    },
  };
}
