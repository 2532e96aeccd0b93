// MODELGATE_CATALOG override and the validation errors an operator would see.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CatalogError } from '../../src/catalog/catalog-error.js';
import { loadCatalogData } from '../../src/catalog/load-catalog.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';

const dir = mkdtempSync(join(tmpdir(), 'modelgate-catalog-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function model(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'acme/widget-1',
    upstream_model: 'widget-1',
    name: 'Widget 1',
    created: 1_760_000_000,
    context_length: 100_000,
    supports_reasoning: false,
    supports_images: false,
    supports_tools: true,
    pricing: { input: 1, output: 2 },
    ...overrides,
  };
}

function doc(models: unknown[]): Record<string, unknown> {
  return { providers: { acme: { kind: 'openai-compatible', base_url: 'https://api.acme.test/v1/' } }, models };
}

let n = 0;
function writeCatalog(content: unknown): string {
  const path = join(dir, `catalog-${n++}.json`);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

/** The CatalogError message for a document with these models. */
function errorFor(models: unknown[]): string {
  try {
    parseCatalog(doc(models), 'test');
  } catch (err) {
    expect(err).toBeInstanceOf(CatalogError);
    return (err as Error).message;
  }
  throw new Error('expected a CatalogError');
}

describe('MODELGATE_CATALOG', () => {
  it('replaces the shipped catalog with the named file', () => {
    const path = writeCatalog(doc([model()]));
    const data = loadCatalogData({ MODELGATE_CATALOG: path });
    expect(data.models.map((m) => m.id)).toEqual(['acme/widget-1']);
    expect(data.providers[0].baseUrl).toBe('https://api.acme.test/v1');
    expect(data.source).toBe(`MODELGATE_CATALOG=${path}`);
  });

  it('falls back to the shipped catalog when unset or blank', () => {
    expect(loadCatalogData({ MODELGATE_CATALOG: '  ' }).source).toContain('shipped');
  });

  it('names the variable and path for a missing file or invalid JSON', () => {
    const missing = join(dir, 'nope.json');
    expect(() => loadCatalogData({ MODELGATE_CATALOG: missing })).toThrow(
      `MODELGATE_CATALOG=${missing}: cannot read file (ENOENT)`,
    );
    const broken = writeCatalog('{"providers": ');
    expect(() => loadCatalogData({ MODELGATE_CATALOG: broken })).toThrow(/MODELGATE_CATALOG=.*: not valid JSON/);
  });

  it('names the variable, index, id and field of an invalid entry', () => {
    const path = writeCatalog(doc([model(), model({ id: 'acme/widget-2', pricing: { input: -1, output: 2 } })]));
    expect(() => loadCatalogData({ MODELGATE_CATALOG: path })).toThrow(
      `MODELGATE_CATALOG=${path}: models[1] ("acme/widget-2") pricing: input must be a non-negative number (USD per 1M tokens)`,
    );
  });
});

describe('catalog validation', () => {
  it.each([
    ['malformed id', { id: 'widget' }, 'id must have the form "<provider>/<model-name>"'],
    ['unknown provider', { id: 'other/widget' }, 'provider "other" is not listed under "providers"'],
    ['missing upstream name', { upstream_model: '' }, 'upstream_model must be a non-empty string'],
    [
      'string price that is not a decimal',
      { pricing: { input: '1e3', output: 1 } },
      'input must be a non-negative number',
    ],
    ['NaN-like price', { pricing: { input: null, output: 1 } }, 'input must be a non-negative number'],
    ['misspelt cache column', { pricing: { input: 1, output: 2, cache_read: 0.1 } }, 'unknown field(s) "cache_read"'],
    ['unknown entry field', { supports_vision: true }, 'unknown field(s) "supports_vision"'],
    ['non-boolean capability', { supports_tools: 'yes' }, 'supports_tools must be true or false'],
    ['created in milliseconds', { created: 1_760_000_000_000 }, 'created must be unix seconds'],
    [
      'max output above context',
      { max_output_tokens: 200_000 },
      'max_output_tokens 200000 exceeds context_length 100000',
    ],
    ['free mode with prices', { access_mode: 'free' }, 'access_mode "free" contradicts the prices'],
    [
      'unsorted tiers',
      {
        tiers: [
          { above_prompt_tokens: 50_000, input: 2, output: 3 },
          { above_prompt_tokens: 20_000, input: 3, output: 4 },
        ],
      },
      'tiers[1]: tiers must be sorted',
    ],
    [
      'duplicate tier threshold',
      {
        tiers: [
          { above_prompt_tokens: 50_000, input: 2, output: 3 },
          { above_prompt_tokens: 50_000, input: 3, output: 4 },
        ],
      },
      'strictly ascending',
    ],
    [
      'tier beyond the context window',
      { tiers: [{ above_prompt_tokens: 100_000, input: 2, output: 3 }] },
      'above_prompt_tokens 100000 is not below context_length 100000',
    ],
    ['reference block on a credits model', { reference: { input: 1, output: 1 } }, 'reference is not allowed here'],
    ['pass mode outside pass/', { access_mode: 'pass' }, 'ids under "pass/" and access_mode "pass" go together'],
  ])('rejects %s', (_label, overrides, message) => {
    expect(errorFor([model(overrides)])).toContain(message);
  });

  it('rejects duplicate ids, naming both positions', () => {
    expect(errorFor([model(), model()])).toBe('test: models[1] ("acme/widget-1"): duplicate id (also models[0])');
  });

  it('rejects a non-http provider base URL and the reserved provider id "pass"', () => {
    expect(() =>
      parseCatalog({ providers: { acme: { kind: 'openai-compatible', base_url: 'ftp://x' } }, models: [] }, 'test'),
    ).toThrow('test: providers.acme: base_url must use http or https');
    expect(() =>
      parseCatalog({ providers: { pass: { kind: 'openai-compatible', base_url: 'https://x' } }, models: [] }, 'test'),
    ).toThrow('reserved');
  });

  it('accepts decimal-string prices exactly', () => {
    const data = parseCatalog(doc([model({ pricing: { input: '0.075', output: '0.3' } })]), 'test');
    expect(data.models[0].pricing.base.input).toBe(75_000_000n);
    expect(data.models[0].pricing.base.output).toBe(300_000_000n);
  });

  it('accepts pass/ entries carrying a reference price block and optional tiers', () => {
    const data = parseCatalog(
      doc([
        model({
          id: 'pass/coder-1',
          access_mode: 'pass',
          upstream_provider: 'acme',
          pricing: undefined,
          context_length: 300_000,
          reference: { input: 0.6, output: 2.2, cached_read: 0.11 },
          tiers: [{ above_prompt_tokens: 256_000, input: 1.2, output: 4.4, cached_read: 0.22 }],
        }),
      ]),
      'test',
    );
    const entry = data.models[0];
    expect(entry).toMatchObject({ id: 'pass/coder-1', provider: 'pass', upstreamProvider: 'acme', accessMode: 'pass' });
    expect(entry.pricing.base.input).toBe(600_000_000n);
    expect(entry.pricing.tiers[0].abovePromptTokens).toBe(256_000);
  });

  it('rejects pass/ entries without a reference block or with list pricing', () => {
    expect(errorFor([model({ id: 'pass/coder-1', access_mode: 'pass' })])).toContain(
      'pricing is not allowed here; pass models use reference',
    );
    expect(errorFor([model({ id: 'pass/coder-1', access_mode: 'pass', pricing: undefined })])).toContain(
      'reference is required',
    );
  });
});
