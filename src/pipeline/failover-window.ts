// The failover window of a stream: its first step is awaited for at most the window, so an upstream that fails before
// its first event can still be failed over from (nothing has reached the client); an upstream silent for longer
// (long thinking) gets its response started, so keep-alives reach the client, and a failure after that is rendered in
// the stream (`window.committed` tells the stream so).
export async function openWithinWindow<T, R>(
  stream: AsyncGenerator<T, R>,
  windowMs: number,
  window: { committed: boolean },
): Promise<{ first: IteratorResult<T, R> | Promise<IteratorResult<T, R>> }> {
  const next = stream.next();
  let timer: NodeJS.Timeout | undefined;
  const windowClosed = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      window.committed = true;
      resolve(undefined);
    }, windowMs);
  });
  try {
    // Wrapped: an async function returning the pending `next` would wait for it, window or not.
    return { first: (await Promise.race([next, windowClosed])) ?? next };
  } finally {
    clearTimeout(timer);
  }
}
