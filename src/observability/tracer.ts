// The tracer of this process, set only when tracing is on (tracing-sdk.ts or a test). Every instrumented place asks
// `activeTracer()` first, so with tracing off no span object, context switch or header is created at all.
import type { GatewayTracer } from './gateway-tracer.js';

let tracer: GatewayTracer | undefined;

export function activeTracer(): GatewayTracer | undefined {
  return tracer;
}

/** Turns tracing on for this process with `next` (undefined turns it off again: tests). */
export function setActiveTracer(next: GatewayTracer | undefined): void {
  tracer = next;
}
