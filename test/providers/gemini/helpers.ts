// Test helpers for the Gemini adapter: fixtures, an adapter context, and replaying SSE bytes (cut at any
// offsets) through the real SSE parser into a translator, then folding the events as a client would.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterContext, AdapterModel, ProviderConfig, StreamEvent, StreamTranslator } from '../../../src/providers/adapter.js';
import { createSseParser } from '../../../src/providers/sse/parse-sse.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/gemini/', import.meta.url));

export function loadJson(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
}

export function loadChunks(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${name}.chunks.txt`));
}

export function geminiContext(model: Partial<AdapterModel> = {}, stream = false, provider: Partial<ProviderConfig> = {}): AdapterContext {
  return {
    provider: { id: 'google', kind: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey: 'AIzaTestKey0123456789', ...provider },
    model: { id: 'google/gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', supportsReasoning: false, ...model },
    stream,
  };
}

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

export function collect(events: StreamEvent[]): Collected {
  const out: Collected = { ids: [], content: '', reasoning: '', reasoningDetails: [], toolCalls: [], finishes: [], usages: [], errors: [] };
  for (const event of events) {
    if (event.type === 'upstream-id') out.ids.push(event.id);
    else if (event.type === 'finish') out.finishes.push(event.finishReason);
    else if (event.type === 'usage') out.usages.push(event.usage);
    else if (event.type === 'error') out.errors.push({ code: event.code, message: event.message });
    else {
      out.content += event.delta.content ?? '';
      out.reasoning += event.delta.reasoning ?? '';
      out.reasoningDetails.push(...(event.delta.reasoning_details ?? []));
      for (const call of event.delta.tool_calls ?? []) {
        const slot = (out.toolCalls[call.index] ??= { arguments: '' });
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
    }
  }
  return out;
}
