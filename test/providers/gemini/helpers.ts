// Test helpers for the Gemini adapter: fixtures, an adapter context, and replaying SSE bytes (cut at any
// offsets) through the real SSE parser into a translator, then folding the events as a client would.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterContext, AdapterModel, ProviderConfig } from '../../../src/providers/adapter.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/gemini/', import.meta.url));

export function loadJson(name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${name}.json`, 'utf8'));
}

export function loadChunks(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${name}.chunks.txt`));
}

export function geminiContext(
  model: Partial<AdapterModel> = {},
  stream = false,
  provider: Partial<ProviderConfig> = {},
): AdapterContext {
  return {
    provider: {
      id: 'google',
      kind: 'gemini',
      baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
      apiKey: 'AIzaTestKey0123456789',
      ...provider,
    },
    model: { id: 'google/gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', supportsReasoning: false, ...model },
    stream,
  };
}

/** Issue 35's schema: a definition whose 6 properties each refer to it again (~0.5 KB; 6^8 nodes once inlined 8 deep). */
export function selfReferencingSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const name of ['left', 'right', 'up', 'down', 'next', 'prev'])
    properties[name] = { $ref: '#/$defs/Node', description: `The ${name} one` };
  return {
    type: 'object',
    properties: { root: { $ref: '#/$defs/Node' } },
    required: ['root'],
    $defs: { Node: { type: 'object', description: 'A node; each field is a node.', properties } },
  };
}

export { collect, replay, type Collected } from '../../helpers/stream-replay.js';
