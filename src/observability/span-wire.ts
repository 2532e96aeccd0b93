// How ended spans cross to the export thread. postMessage copies a message by structured clone on the serving thread,
// at a cost per value, and most per string, so a batch is one flat array: each span a fixed run of fields followed by
// its attribute pairs, and each attribute key a number, the key itself sent once, in the first batch that uses it (the
// keys are the gateway's own few dozen). Measured: 0.7 µs per span against 2.1 for an object per span.
import type { AttributeValue } from '@opentelemetry/api';
import type { FinishedSpan } from './recording-tracer.js';

/** Fields before the attribute pairs, the last being how many attribute entries (2 per attribute) follow. */
const FIXED_FIELDS = 16;

export interface SpanBatch {
  /** Attribute keys first used in this batch, numbered on from the previous batches' keys. */
  newKeys: string[];
  fields: unknown[];
  spans: number;
}

/** The serving thread's side: batches spans, numbering attribute keys. */
export class SpanEncoder {
  private readonly keyNumbers = new Map<string, number>();
  private batch: SpanBatch = { newKeys: [], fields: [], spans: 0 };

  get spans(): number {
    return this.batch.spans;
  }

  add(span: FinishedSpan): void {
    const { fields } = this.batch;
    const attributes = span.attributes;
    fields.push(
      span.name, span.kind, span.traceId, span.spanId, span.traceFlags, span.traceState,
      span.parentSpanId, span.parentTraceFlags, span.parentIsRemote,
      span.startMs, span.endMs, span.statusCode, span.statusMessage, span.events, span.links,
      attributes.length,
    );
    for (let i = 0; i < attributes.length; i += 2) fields.push(this.keyNumber(attributes[i] as string), attributes[i + 1]);
    this.batch.spans += 1;
  }

  /** The batch so far, and a new one started. */
  take(): SpanBatch {
    const batch = this.batch;
    this.batch = { newKeys: [], fields: [], spans: 0 };
    return batch;
  }

  private keyNumber(key: string): number {
    let number = this.keyNumbers.get(key);
    if (number === undefined) {
      number = this.keyNumbers.size;
      this.keyNumbers.set(key, number);
      this.batch.newKeys.push(key);
    }
    return number;
  }
}

/** The export thread's side: batches back into spans, in the order they were taken. */
export class SpanDecoder {
  private readonly keys: string[] = [];

  decode(batch: SpanBatch): FinishedSpan[] {
    this.keys.push(...batch.newKeys);
    const { fields } = batch;
    const spans: FinishedSpan[] = [];
    let i = 0;
    while (i + FIXED_FIELDS <= fields.length) {
      const f = fields.slice(i, i + FIXED_FIELDS);
      const end = i + FIXED_FIELDS + (f[15] as number);
      const attributes: (string | AttributeValue)[] = [];
      for (i += FIXED_FIELDS; i < end; i += 2) attributes.push(this.keys[fields[i] as number]!, fields[i + 1] as AttributeValue);
      spans.push({
        name: f[0], kind: f[1], traceId: f[2], spanId: f[3], traceFlags: f[4], traceState: f[5],
        parentSpanId: f[6], parentTraceFlags: f[7], parentIsRemote: f[8],
        startMs: f[9], endMs: f[10], statusCode: f[11], statusMessage: f[12], events: f[13], links: f[14],
        attributes,
      } as FinishedSpan);
    }
    return spans;
  }
}
