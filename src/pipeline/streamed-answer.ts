// Step 6 for streams, on either lane: the upstream's events metered in batches, and at their end the settlement
// before the frames that tell the bill (settled-before-end.ts). Translated: the adapter's events, through the output
// guardrails when the request has any. Native: the upstream's own events as SSE text, credentials cut out.
import type { StreamEvent } from '../core/generation.js';
import type { StreamEnd } from '../core/stream-renderer.js';
import type { StreamTranslator } from '../providers/adapter.js';
import type { NativeStreamReader } from '../providers/native/native-protocol.js';
import type { Redact } from '../providers/redact-credentials.js';
import type { DoorGuardrails } from '../guardrails/door-guardrails.js';
import { generationStream, type GenerationStreamOptions } from './generation-stream.js';
import { guardedStream } from './guarded-stream.js';
import { nativeStream, type NativeStreamEnd } from './native-stream.js';
import { settledBeforeEnd } from './settled-before-end.js';

/** What either lane's stream takes of its run, beside the upstream and its reader. */
export type StreamRun = Omit<GenerationStreamOptions, 'upstream' | 'translator' | 'excludeReasoning'> & {
  /** Queues the settlement once; resolves when it is committed. */
  settle: () => Promise<void>;
};

export function translatedStream(
  run: StreamRun & Pick<GenerationStreamOptions, 'upstream' | 'excludeReasoning'>,
  translator: StreamTranslator,
  guardrails: DoorGuardrails | undefined,
): AsyncGenerator<StreamEvent[], StreamEnd | undefined> {
  const { settle, ...options } = run;
  const events = generationStream({ ...options, translator });
  if (guardrails === undefined || guardrails.output.length === 0) return settledBeforeEnd(events, settle);
  const guarded = guardedStream(events, { guardrails, meter: run.meter, totals: run.totals });
  return settledBeforeEnd(guarded, settle);
}

export function nativeTextStream(
  run: StreamRun & Pick<GenerationStreamOptions, 'upstream'>,
  reader: NativeStreamReader,
  redact: Redact,
): AsyncGenerator<string[], NativeStreamEnd | undefined> {
  const { settle, ...options } = run;
  return settledBeforeEnd(nativeStream({ ...options, reader, redact }), settle, (end) => end.closing);
}
