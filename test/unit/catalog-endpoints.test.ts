// Catalog `endpoints`: the entry's own fields are its primary endpoint; further endpoints inherit what they do not
// override, and each is a CatalogEntry view of the model as that endpoint serves it.
import { describe, expect, it } from 'vitest';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import { CatalogError } from '../../src/catalog/catalog-error.js';

const providers = {
  alpha: { kind: 'openai-compatible', base_url: 'https://a.example/v1' },
  beta: { kind: 'openai-compatible', base_url: 'https://b.example/v1' },
};
const model = (extra: Record<string, unknown> = {}) => ({
  id: 'alpha/m',
  upstream_model: 'm',
  name: 'M',
  created: 1760000000,
  context_length: 1000,
  max_output_tokens: 100,
  supports_reasoning: false,
  supports_images: true,
  supports_tools: true,
  pricing: { input: 4, output: 8 },
  ...extra,
});
const parse = (m: unknown) => parseCatalog({ providers, models: [m] }, 'test');

describe('catalog endpoints', () => {
  it('an entry without endpoints has exactly one: itself', () => {
    const [entry] = parse(model()).models;
    expect(entry.endpoints).toHaveLength(1);
    expect(entry.endpoints![0]).toMatchObject({ key: 'alpha/m@alpha', provider: 'alpha' });
    expect(entry.endpoints![0].entry).toBe(entry);
  });

  it('further endpoints inherit and override', () => {
    const [entry] = parse(
      model({
        endpoints: [
          { provider: 'beta', upstream_model: 'bm', pricing: { input: 2, output: 3 }, supports_images: false },
        ],
      }),
    ).models;
    const beta = entry.endpoints![1];
    expect(beta.key).toBe('alpha/m@beta');
    expect(beta.entry).toMatchObject({
      id: 'alpha/m',
      upstreamProvider: 'beta',
      upstreamModel: 'bm',
      supportsImages: false,
      supportsTools: true,
      contextLength: 1000,
    });
    expect(beta.entry.pricing.base.input).toBe(2_000_000_000n);
    expect(beta.entry.endpoints).toBe(entry.endpoints);
  });

  it.each([
    [[{ provider: 'nobody' }], /not listed under "providers"/],
    [[{ provider: 'alpha' }], /already serves this model/],
    [[{ provider: 'beta', reference: { input: 1, output: 1 } }], /reference is not allowed/],
    [[{ provider: 'beta', colour: 'red' }], /unknown field/],
    [{ provider: 'beta' }, /endpoints must be an array/],
  ])('rejects %j', (endpoints, message) => {
    expect(() => parse(model({ endpoints }))).toThrow(CatalogError);
    expect(() => parse(model({ endpoints }))).toThrow(message);
  });
});
