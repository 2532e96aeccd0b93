// The optional tracking headers of the spec (X-Title, HTTP-Referer, X-Task-ID), bounded, for the generation record.
import type { Context } from 'koa';
import type { TrackingHeaders } from '../pipeline/generation-record.js';

const MAX_TRACKING_HEADER = 512;

export function trackingHeaders(ctx: Context): TrackingHeaders {
  const read = (name: string) => ctx.get(name).slice(0, MAX_TRACKING_HEADER) || null;
  return { appTitle: read('x-title'), appReferer: read('http-referer'), taskId: read('x-task-id') };
}
