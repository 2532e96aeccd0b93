// Replays a recorded vendor stream through a native lane's reader, as pipeline/native-stream.ts does (the real SSE
// parser, then reader.end()), and returns what each event told the meter.
import { readFileSync } from 'node:fs';
import type { NativeAnswerContext, NativeProtocol, NativeReading } from '../../src/providers/native/native-protocol.js';
import type { ProviderConfig } from '../../src/providers/adapter.js';
import { createSseParser } from '../../src/providers/sse/parse-sse.js';

export function nativeContext(provider: ProviderConfig, model: string, upstreamModel: string): NativeAnswerContext {
  return { generationId: 'gen-native-test', model, upstreamModel, provider, redact: (text) => text };
}

export function fixtureText(vendor: string, file: string): string {
  return readFileSync(new URL(`../fixtures/${vendor}/${file}`, import.meta.url), 'utf8');
}

/** The stream up to the event that holds `marker` (that event and every later one left out). */
function cutBeforeEvent(text: string, marker: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`the fixture has no ${marker}`);
  return text.slice(0, text.lastIndexOf('\n\n', at) + 2);
}

/** Every reading of the stream, the end's last; `cutBefore`: the stream stops before the first event containing it. */
export function nativeReadings(
  native: NativeProtocol,
  ctx: NativeAnswerContext,
  text: string,
  cutBefore?: string,
): NativeReading[] {
  const cut = cutBefore === undefined ? text : cutBeforeEvent(text, cutBefore);
  const reader = native.createStreamReader(ctx);
  const parser = createSseParser();
  const readings = [...parser.push(cut), ...parser.end()].map((event) => reader.read(event).reading);
  readings.push(reader.end().reading);
  return readings;
}

/** The usage the meter ends with: the last reading that carried one. */
export function lastUsage(readings: readonly NativeReading[]): NativeReading['usage'] {
  return readings.filter((r) => r.usage).at(-1)?.usage;
}
