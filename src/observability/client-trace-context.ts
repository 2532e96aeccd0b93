// The client's W3C Trace Context (traceparent, tracestate), passed upstream as it came when the gateway does not
// trace itself: the caller's trace then continues at the provider, and the gateway creates nothing (no span, no
// context). With tracing on, the request span continues the client's trace and the upstream gets the attempt span's
// context instead (http-client.ts). Only these two headers ever leave: never the client's other headers (its key!).
// A malformed traceparent is dropped, never an error (https://www.w3.org/TR/trace-context/#traceparent-header); a
// malformed tracestate is dropped alone, as the recommendation asks (#tracestate-header). The validation is the
// gateway's own because with tracing off nothing of the SDK (its propagator included) is loaded; with tracing on, the
// SDK's W3C propagator reads these headers (gateway-tracer.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { activeTracer } from './tracer.js';

export interface ClientTraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/** Version 00 exactly; a later version has the same first 55 characters and, when longer, a '-' after them. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?$/;
const ALL_ZERO = /^0+$/;
/** simple-key, or tenant-id@system-id. */
const TRACESTATE_KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
/** Printable ASCII without ',' and '=', at most 256 characters, not ending in a space. */
const TRACESTATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;
const MAX_TRACESTATE_MEMBERS = 32;

/**
 * The trace headers to forward for this request: undefined when tracing is on (the attempt span goes upstream instead),
 * when the client sent none, or when its traceparent is malformed. Costs one header lookup when absent.
 */
export function clientTraceHeaders(headers: IncomingHttpHeaders): ClientTraceHeaders | undefined {
  const traceparent = headers.traceparent;
  if (traceparent === undefined || activeTracer() !== undefined) return undefined;
  if (typeof traceparent !== 'string' || !validTraceparent(traceparent)) return undefined;
  const tracestate = headers.tracestate;
  return typeof tracestate === 'string' && validTracestate(tracestate) ? { traceparent, tracestate } : { traceparent };
}

export function validTraceparent(value: string): boolean {
  // Node joins repeated headers with ", ": two traceparents never parse, as the recommendation wants.
  const match = TRACEPARENT.exec(value);
  if (!match) return false;
  const [, version, traceId, parentId, rest] = match;
  if (version === 'ff') return false;
  if (version === '00' && rest !== undefined) return false;
  return !ALL_ZERO.test(traceId!) && !ALL_ZERO.test(parentId!);
}

export function validTracestate(value: string): boolean {
  // Repeated tracestate headers arrive joined with ", ", which is how the list is combined anyway.
  const keys = new Set<string>();
  for (const raw of value.split(',')) {
    const member = raw.trim();
    if (member === '') continue;
    const eq = member.indexOf('=');
    if (eq <= 0) return false;
    const key = member.slice(0, eq);
    if (!TRACESTATE_KEY.test(key) || !TRACESTATE_VALUE.test(member.slice(eq + 1)) || keys.has(key)) return false;
    keys.add(key);
    if (keys.size > MAX_TRACESTATE_MEMBERS) return false;
  }
  return true;
}
