// Spans the SDK's batch processor drops from a full queue are not lost silently: startOtlpTracing reports them
// (metrics count them as modelgate_trace_spans_dropped_total) from the SDK's warning. A sink that holds its answers
// keeps the one export in flight while the tiny queue (OTEL_BSP_MAX_QUEUE_SIZE=2) fills up.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { activeTracer } from '../../src/observability/tracer.js';
import { startOtlpTracing } from '../../src/observability/tracing-sdk.js';
import { answerExport } from '../helpers/otlp-request.js';

const held: [http.IncomingMessage, http.ServerResponse][] = [];
let exports = 0;
let holding = true;
const sink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    exports += 1;
    if (holding) held.push([req, res]);
    else answerExport(req, res);
  });
});
const saved = process.env.OTEL_BSP_MAX_QUEUE_SIZE;

beforeAll(async () => {
  process.env.OTEL_BSP_MAX_QUEUE_SIZE = '2';
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  if (saved === undefined) delete process.env.OTEL_BSP_MAX_QUEUE_SIZE;
  else process.env.OTEL_BSP_MAX_QUEUE_SIZE = saved;
  sink.closeAllConnections();
  await new Promise((resolve) => sink.close(resolve));
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

it('reports the spans dropped from a full export queue', { timeout: 30_000 }, async () => {
  const dropped: number[] = [];
  const tracing = await startOtlpTracing(
    { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` },
    { droppedSpans: (count) => dropped.push(count) },
  );
  try {
    const tracer = activeTracer()!.tracer;
    const span = () => tracer.startSpan('s').end();
    span();
    span(); // a full batch: exported at once, and the sink holds the answer
    await until(() => exports === 1);
    span();
    span(); // queued
    span();
    span();
    span(); // dropped
    expect(dropped).toEqual([]);
    holding = false;
    for (const [req, res] of held.splice(0)) answerExport(req, res);
    await until(() => exports === 2); // the queued two went out: the queue has room again
    span(); // accepted: the SDK now says how many it dropped
    expect(dropped).toEqual([3]);
  } finally {
    await tracing.shutdown();
  }
});
