// The end of a stream, on either lane: its batches as they come; at its end, the settlement, then the frames it held
// back (`closing`: the native lane's finish, usage and end events) and its end (from which the translated lane's
// writer renders the closing frames). So every frame that tells the client the bill or ends the answer leaves once
// the bill is durable. A client gone (no end) is settled by the handler. The settlement never runs inside the first
// step: routing may read that one within its failover window, before it has recorded the attempt.
export async function* settledBeforeEnd<T, E extends object>(
  stream: AsyncGenerator<T[], E | undefined>,
  settle: () => Promise<void>,
  closing?: (end: E) => T[] | undefined,
): AsyncGenerator<T[], E | undefined> {
  let yielded = false;
  try {
    for (;;) {
      const step = await stream.next();
      if (!step.done) {
        yielded = true;
        yield step.value;
        continue;
      }
      const end = step.value;
      if (end === undefined) return undefined;
      if (!yielded) yield [];
      await settle();
      const held = closing?.(end);
      if (held !== undefined && held.length > 0) yield held;
      return end;
    }
  } finally {
    // The writer stopped early (the client left): the upstream is released.
    await stream.return(undefined);
  }
}
