// Embedding models in catalog JSON: the `embedding` block makes one, with its vector sizes; fields that only describe
// generation are refused rather than ignored. The shipped catalog has the four of the issue.
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { toWireModel } from '../../src/catalog/wire-model.js';

const providers = { acme: { kind: 'openai-compatible', base_url: 'https://api.acme.test/v1' } };
const embedding = (overrides: Record<string, unknown> = {}) => ({
  id: 'acme/embed-1',
  upstream_model: 'embed-1',
  name: 'Embed 1',
  created: 1_760_000_000,
  context_length: 8191,
  pricing: { input: 0.02, output: 0 },
  embedding: { default_dimensions: 1536, min_dimensions: 256, max_dimensions: 1536 },
  ...overrides,
});
const parse = (model: Record<string, unknown>) => parseCatalog({ providers, models: [model] }, 'test');

describe('embedding models in the catalog', () => {
  it('reads the vector sizes; capabilities default to false', () => {
    const [entry] = parse(embedding()).models;
    expect(entry.embedding).toEqual({ defaultDimensions: 1536, minDimensions: 256, maxDimensions: 1536 });
    expect(entry).toMatchObject({
      supportsReasoning: false,
      supportsImages: false,
      supportsTools: false,
      contextLength: 8191,
      accessMode: 'credits',
    });
    expect(parse(embedding({ embedding: { default_dimensions: 1024 } })).models[0].embedding).toEqual({
      defaultDimensions: 1024,
      minDimensions: 1024,
      maxDimensions: 1024,
    });
  });

  it('refuses what only describes generation, a price for output, and sizes out of order', () => {
    expect(() => parse(embedding({ max_output_tokens: 10 }))).toThrow(
      /max_output_tokens is not allowed on an embedding model/,
    );
    expect(() => parse(embedding({ supports_tools: true }))).toThrow(/supports_tools must be false/);
    expect(() => parse(embedding({ pricing: { input: 0.02, output: 1 } }))).toThrow(/pricing.output must be 0/);
    expect(() => parse(embedding({ embedding: { default_dimensions: 100, min_dimensions: 200 } }))).toThrow(
      /min_dimensions <= default_dimensions <= max_dimensions/,
    );
    expect(() => parse(embedding({ embedding: { default_dimensions: 8, dims: 3 } }))).toThrow(/unknown field/);
    expect(() => parse(embedding({ endpoints: [] }))).toThrow(/endpoints is not allowed/);
  });

  it('lists them with output modality `embeddings` and their sizes', () => {
    const wire = toWireModel(parse(embedding()).models[0]);
    expect(wire.architecture).toEqual({ input_modalities: ['text'], output_modalities: ['embeddings'] });
    expect(wire.embedding).toEqual({ default_dimensions: 1536, min_dimensions: 256, max_dimensions: 1536 });
    expect(wire.pricing.completion).toBe('0');
  });

  it('the shipped catalog has OpenAI, Gemini and Mistral embedding models with prices and sizes', () => {
    const catalog = loadCatalog({});
    const sizes = (id: string) => catalog.get(id)?.embedding;
    expect(sizes('openai/text-embedding-3-small')).toEqual({
      defaultDimensions: 1536,
      minDimensions: 1,
      maxDimensions: 1536,
    });
    expect(sizes('openai/text-embedding-3-large')).toEqual({
      defaultDimensions: 3072,
      minDimensions: 1,
      maxDimensions: 3072,
    });
    expect(sizes('google/gemini-embedding-001')).toEqual({
      defaultDimensions: 3072,
      minDimensions: 128,
      maxDimensions: 3072,
    });
    expect(sizes('mistral/mistral-embed')).toEqual({
      defaultDimensions: 1024,
      minDimensions: 1024,
      maxDimensions: 1024,
    });
    expect(catalog.get('openai/text-embedding-3-small')!.pricing.base.input).toBe(20_000_000n);
    expect(catalog.get('google/gemini-embedding-001')!.contextLength).toBe(2048);
  });
});
