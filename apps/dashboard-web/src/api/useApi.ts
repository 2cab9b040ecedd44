import { useCallback, useEffect, useState } from 'react';
import { ApiError, api } from './client';

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
