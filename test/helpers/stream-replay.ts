// Test helpers: load recorded vendor fixtures and replay them through the SSE parser and a translator.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterContext, ProviderConfig, StreamTranslator } from '../../src/providers/adapter.js';
import type { StreamEvent } from '../../src/core/generation.js';
import { createSseParser } from '../../src/providers/sse/parse-sse.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function loadJson(vendor: string, name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${vendor}/${name}.json`, 'utf8'));
}

export function loadChunks(vendor: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${vendor}/${name}.chunks.txt`));
}

/** Feed bytes (optionally cut at the given offsets) through the SSE parser into the translator. */
export function replay(bytes: Uint8Array, translator: StreamTranslator, cuts: number[] = []): StreamEvent[] {
  const parser = createSseParser();
  const events: StreamEvent[] = [];
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let previous = 0;
  for (const point of [...points, bytes.length]) {
    for (const sse of parser.push(bytes.subarray(previous, point))) events.push(...translator.push(sse));
    previous = point;
  }
  for (const sse of parser.end()) events.push(...translator.push(sse));
  events.push(...translator.end());
  return events;
}

export interface Collected {
  ids: string[];
  content: string;
  reasoning: string;
  reasoningDetails: unknown[];
  toolCalls: Array<{ id?: string; name?: string; arguments: string }>;
  finishes: string[];
  usages: unknown[];
  errors: Array<{ code: string; message: string }>;
}

/** Fold translator output the way a client would. */
export function collect(events: StreamEvent[]): Collected {
  const out: Collected = { ids: [], content: '', reasoning: '', reasoningDetails: [], toolCalls: [], finishes: [], usages: [], errors: [] };
  for (const event of events) {
    switch (event.type) {
      case 'upstream-id':
        out.ids.push(event.id);
        break;
      case 'delta':
        out.content += event.delta.content ?? '';
        out.reasoning += event.delta.reasoning ?? '';
        out.reasoningDetails.push(...(event.delta.reasoning_details ?? []));
        for (const call of event.delta.tool_calls ?? []) {
          const slot = (out.toolCalls[call.index] ??= { arguments: '' });
          if (call.id) slot.id = call.id;
          if (call.function?.name) slot.name = call.function.name;
          slot.arguments += call.function?.arguments ?? '';
        }
        break;
      case 'finish':
        out.finishes.push(event.finishReason);
        break;
      case 'usage':
        out.usages.push(event.usage);
        break;
      case 'error':
        out.errors.push({ code: event.code, message: event.message });
        break;
    }
  }
  return out;
}

export function context(provider: Partial<ProviderConfig> & { id: string }, model: Partial<AdapterContext['model']> = {}, stream = false): AdapterContext {
  return {
    provider: { kind: 'openai-compatible', baseUrl: '', apiKey: 'sk-test-key', ...provider },
    model: { id: `${provider.id}/m`, upstreamModel: 'm', supportsReasoning: false, ...model },
    stream,
  };
}
