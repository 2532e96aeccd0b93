// Catalog lookup (resolve) and the /models wire conversion.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../src/catalog/catalog.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { parseCatalog } from '../../src/catalog/parse-catalog.js';
import { usdPerTokenString } from '../../src/catalog/wire-model.js';

const catalog = loadCatalog({});

describe('Catalog.resolve', () => {
  it('finds a known model, including names that contain slashes and colons', () => {
    const ok = catalog.resolve('openai/gpt-5.4');
    expect(ok.ok && ok.entry.upstreamModel).toBe('gpt-5.4');
    const free = catalog.resolve('openrouter/openai/gpt-oss-120b:free');
    expect(free.ok && free.entry.upstreamModel).toBe('openai/gpt-oss-120b:free');
  });

  it.each([
    ['gpt-5.4'],
    ['/gpt-5.4'],
    ['openai/'],
    ['openai//x'],
    ['openai/gpt 5'],
    ['OpenAI/gpt-5.4'],
    [''],
    [42],
    [null],
  ])('calls %j malformed and shows the expected form', (id) => {
    const r = catalog.resolve(id);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe('malformed');
    expect(r.message).toContain('"<provider>/<model-name>"');
    expect(r.message).toContain('openai/gpt-5.5'); // an example id
  });

  it('reports an unknown provider and lists the known ones', () => {
    const r = catalog.resolve('acme/widget');
    expect(r).toMatchObject({ ok: false, reason: 'unknown_provider' });
    if (r.ok) return;
    expect(r.message).toContain('Unknown provider "acme"');
    expect(r.message).toContain('<provider>/<model-name>');
    expect(r.message).toContain('openai, anthropic, google');
  });

  it('reports an unknown model and suggests ids of that provider', () => {
    const r = catalog.resolve('anthropic/claude-9');
    expect(r).toMatchObject({ ok: false, reason: 'unknown_model' });
    if (r.ok) return;
    expect(r.message).toContain('no model named "claude-9" for provider "anthropic"');
    expect(r.message).toContain('anthropic/claude-opus-5-5');
    expect(r.message).not.toContain('openai/');
  });

  it('treats pass/ as a known namespace even before subscription models exist', () => {
    expect(catalog.resolve('pass/kimi-coder')).toMatchObject({ ok: false, reason: 'unknown_model' });
  });

  it('lists models in catalog order', () => {
    expect(catalog.list()[0].id).toBe('openai/gpt-5.5');
    expect(catalog.list().length).toBe(new Set(catalog.list().map((m) => m.id)).size);
  });
});

describe('toWireModel', () => {
  it('writes OpenRouter-style USD-per-token strings without exponents', () => {
    const wire = catalog.toWireModel(catalog.get('openai/gpt-5.4')!);
    expect(wire.pricing).toEqual({
      prompt: '0.0000025',
      completion: '0.000015',
      input_cache_read: '0.00000025',
      input_cache_write: '0.0000025', // no separate cache-write price: billed as input
      web_search: '0.01', // USD per web search call, not per token
      file_search: '0.0025', // USD per file search call
      code_interpreter: '0.03', // USD per 1 GB code interpreter container
      multipliers: { service_tier: { priority: '2', flex: '0.5' } }, // factors on the token prices
    });
    expect(usdPerTokenString(37_500_000n)).toBe('0.0000000375');
    expect(usdPerTokenString(1n)).toBe('0.000000000000001');
    expect(usdPerTokenString(0n)).toBe('0');
  });

  it('maps capabilities, limits and access mode', () => {
    const wire = catalog.toWireModel(catalog.get('anthropic/claude-sonnet-5-5')!);
    expect(wire).toMatchObject({
      id: 'anthropic/claude-sonnet-5-5',
      name: 'Claude Sonnet 5.5',
      context_length: 1_000_000,
      max_completion_tokens: 128_000,
      supports_reasoning: true,
      supports_images: true,
      supports_tools: true,
      access_mode: 'credits',
      architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] },
    });
    // Each capability once, in snake_case: the seed contract's camelCase names are not repeated.
    expect(wire).not.toHaveProperty('supportsReasoning');
    expect(wire).not.toHaveProperty('supportsImages');
    expect(wire.pricing.input_cache_write).toBe('0.0000025');
    expect(wire.pricing.input_cache_write_1h).toBe('0.000004'); // 2× input; absent where writes have one price
    expect(typeof wire.created).toBe('number');
  });

  it('shows free models at "0" everywhere with access_mode free', () => {
    const entry = catalog.get('openrouter/openai/gpt-oss-20b:free')!;
    expect(catalog.isFree(entry)).toBe(true);
    const wire = catalog.toWireModel(entry);
    expect(wire.access_mode).toBe('free');
    expect(Object.values(wire.pricing)).toEqual(['0', '0', '0', '0']);
    expect(wire.architecture?.input_modalities).toEqual(['text']);
  });

  it('omits optional fields the entry lacks and a max output equal to the context', () => {
    const data = parseCatalog(
      {
        providers: { acme: { kind: 'openai-compatible', base_url: 'https://a.test' } },
        models: [
          {
            id: 'acme/a',
            upstream_model: 'a',
            name: 'A',
            created: 1,
            context_length: 10,
            max_output_tokens: 10,
            supports_reasoning: false,
            supports_images: false,
            supports_tools: false,
            pricing: { input: 1, output: 1 },
          },
        ],
      },
      'test',
    );
    const wire = new Catalog(data).toWireModel(data.models[0]);
    expect('description' in wire).toBe(false);
    expect('max_completion_tokens' in wire).toBe(false);
  });
});
