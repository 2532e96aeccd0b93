// What cancels an upstream call, and how the transport listens to it: an AbortSignal, or the gateway's own
// EventEmitter signal (src/http/abort-on-disconnect.ts), which undici accepts in its place.
import type { EventEmitter } from 'node:events';
import { errors as undiciErrors } from 'undici';

/**
 * What cancels an upstream call: an AbortSignal, or what undici accepts in its place, an EventEmitter that emits
 * 'abort' and carries `aborted` and `reason` (the gateway's own, see src/http/abort-on-disconnect.ts).
 */
export type CallSignal = AbortSignal | (EventEmitter & { readonly aborted: boolean; readonly reason?: unknown });

export function abortReason(signal: CallSignal): Error {
  const reason = signal.reason;
  return reason instanceof Error ? reason : new undiciErrors.RequestAbortedError();
}

export function listen(signal: CallSignal, onAbort: () => void): void {
  if ('addEventListener' in signal) signal.addEventListener('abort', onAbort, { once: true });
  else signal.once('abort', onAbort);
}

export function unlisten(signal: CallSignal, onAbort: () => void): void {
  if ('removeEventListener' in signal) signal.removeEventListener('abort', onAbort);
  else signal.removeListener('abort', onAbort);
}
