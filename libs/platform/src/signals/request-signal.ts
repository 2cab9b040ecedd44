/**
 * A signal for one request: aborted after `timeoutMs` (a `TimeoutError`, as `AbortSignal.timeout`
 * gives) or when `caller` aborts (with its reason). `release()` once the request is over drops the
 * listener on `caller`, so a long-lived caller's signal (the worker's stop signal, gateway-sim's
 * shutdown) holds nothing of the request afterwards. `AbortSignal.any([caller, timeout])` would do
 * the same while the request runs, but Node keeps every signal it made linked to a caller that never aborts: in the
 * fifth and sixth soaks each SMSGate request left about 200 bytes on the worker's heap.
 */
export function requestSignal(timeoutMs: number, caller?: AbortSignal): { signal: AbortSignal; release(): void } {
  const request = new AbortController();
  const timer = setTimeout(() => request.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  const onCallerAbort = (): void => request.abort(caller!.reason);
  if (caller?.aborted) request.abort(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: request.signal,
    release: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
