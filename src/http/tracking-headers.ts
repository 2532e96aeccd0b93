// The optional tracking headers of the spec (X-Title, HTTP-Referer, X-Task-ID), bounded, for the generation record.
import type { IncomingHttpHeaders } from 'node:http';
import type { Context } from 'koa';
import type { TrackingHeaders } from '../pipeline/generation-record.js';

const MAX_TRACKING_HEADER = 512;

export function trackingHeaders(ctx: Context): TrackingHeaders {
  return trackingHeadersOf(ctx.headers);
}

/** The same, from the headers alone (a WebSocket's handshake, read once for every turn on it). */
export function trackingHeadersOf(headers: IncomingHttpHeaders): TrackingHeaders {
  const read = (name: string) => {
    const value = headers[name];
    return (Array.isArray(value) ? value.join(', ') : (value ?? '')).slice(0, MAX_TRACKING_HEADER) || null;
  };
  return { appTitle: read('x-title'), appReferer: read('http-referer'), taskId: read('x-task-id') };
}
