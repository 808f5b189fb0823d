/** Thrown when a source call takes longer than the handler's `timeoutMs`. */
export class SourceTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`paperlist: the source did not answer within ${timeoutMs} ms`);
    this.name = 'SourceTimeoutError';
  }
}

/**
 * Runs a source call with a signal that aborts when the client goes away or, with a
 * timeout, when time is up; a call still running then is abandoned with
 * {@link SourceTimeoutError}, so a hung source can never hang the request.
 */
export async function callSource<T>(
  call: (options: { signal?: AbortSignal }) => Promise<T>,
  clientSignal: AbortSignal | undefined,
  timeoutMs: number | null,
): Promise<T> {
  if (timeoutMs === null) return call(clientSignal ? { signal: clientSignal } : {});
  const controller = new AbortController();
  const timeout = new SourceTimeoutError(timeoutMs);
  const onClientAbort = () => controller.abort(clientSignal?.reason);
  if (clientSignal?.aborted) onClientAbort();
  else clientSignal?.addEventListener('abort', onClientAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(timeout);
      reject(timeout);
    }, timeoutMs);
  });
  try {
    return await Promise.race([call({ signal: controller.signal }), expired]);
  } finally {
    clearTimeout(timer);
    clientSignal?.removeEventListener('abort', onClientAbort);
  }
}
