// The shipped subscription models: eleven pass/ entries, their reference cost (computed by hand here,
// independent of the pricing code), the one long-prompt tier at 256K, the pass upstream's configuration,
// and the quota variables.
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { costNanos, maxCostNanos } from '../../src/billing/pricing.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { loadProviderConfigs, ProviderConfigError } from '../../src/providers/registry.js';
import { resolveTarget } from '../../src/routing/resolve-target.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import type { NormalizedUsage } from '../../src/core/generation.js';

const catalog = loadCatalog({});
const passModels = catalog.list().filter((m) => m.accessMode === 'pass');
const usage = (u: Partial<NormalizedUsage>): NormalizedUsage => ({
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  ...u,
});

// 100K prompt tokens of which 40K cached reads, 10K completion tokens:
//   (60_000 × input + 40_000 × cached_read + 10_000 × output) / 1e6 USD, in nanos × 1e9.
// A model without a cached_read rate counts cached reads at its input rate.
const EXPECTED_NANOS: Record<string, bigint> = {
  'pass/qwen3-coder': 40_000_000n, // 0.22 / (0.22) / 1.8
  'pass/qwen3-coder-next': 10_000_000n, // 0.07 / (0.07) / 0.30
  'pass/qwen3.6-35b-a3b': 21_000_000n, // 0.15 / 0.05 / 1.00
  'pass/kimi-k2.6': 103_400_000n, // 0.95 / 0.16 / 4.00
  'pass/kimi-k2.7-code': 83_500_000n, // 0.71 / 0.15 / 3.49
  'pass/glm-5.2': 139_200_000n, // 1.40 / 0.28 / 4.40
  'pass/glm-4.7': 62_400_000n, // 0.60 / 0.11 / 2.20
  'pass/deepseek-v4-pro': 120_560_000n, // 1.32 / 0.044 / 3.96
  'pass/deepseek-v4-flash': 40_160_000n, // 0.44 / 0.014 / 1.32
  'pass/minimax-m2.7': 32_400_000n, // 0.30 / 0.06 / 1.20
  'pass/gpt-oss-120b': 18_000_000n, // 0.15 / 0.075 / 0.60
};

describe('pass/ catalog entries', () => {
  it('ships eleven subscription models, all in the pass/ namespace and served by the pass upstream', () => {
    expect(passModels.map((m) => m.id).sort()).toEqual(Object.keys(EXPECTED_NANOS).sort());
    for (const m of passModels) {
      expect(m.provider).toBe('pass');
      expect(m.upstreamProvider, m.id).toBe('pass');
      expect(m.supportsTools, m.id).toBe(true);
      expect(m.pricing.base.input, m.id).toBeGreaterThan(0n);
      expect(m.pricing.base.output, m.id).toBeGreaterThan(m.pricing.base.input);
    }
  });

  it.each(Object.entries(EXPECTED_NANOS))('values usage of %s at its reference rates', (id, expected) => {
    const entry = catalog.get(id)!;
    expect(costNanos(entry, usage({ promptTokens: 100_000, cachedTokens: 40_000, completionTokens: 10_000 }))).toBe(
      expected,
    );
  });

  it('counts cache writes at the cached_write rate where one is published (MiniMax: 0.375)', () => {
    const entry = catalog.get('pass/minimax-m2.7')!;
    expect(costNanos(entry, usage({ promptTokens: 10_000, cacheWriteTokens: 10_000 }))).toBe(3_750_000n);
  });

  it('has exactly one tiered model, split at 256_000 prompt tokens, the threshold itself on the lower tier', () => {
    const tiered = passModels.filter((m) => m.pricing.tiers.length > 0);
    expect(tiered.map((m) => m.id)).toEqual(['pass/qwen3-coder']);
    expect(tiered[0].pricing.tiers).toHaveLength(1);
    expect(tiered[0].pricing.tiers[0].abovePromptTokens).toBe(256_000);
    const entry = tiered[0];
    // 256_000 × 0.22 + 1_000 × 1.8 = 0.05812 USD
    expect(costNanos(entry, usage({ promptTokens: 256_000, completionTokens: 1_000 }))).toBe(58_120_000n);
    // 256_001 × 0.44 + 1_000 × 7.2 = 0.11984044 USD: the long tier prices the whole request
    expect(costNanos(entry, usage({ promptTokens: 256_001, completionTokens: 1_000 }))).toBe(119_840_440n);
    // The reservation bound uses the dearest tier for every token.
    expect(maxCostNanos(entry, 1_000, 1_000)).toBe(7_640_000n);
  });
});

describe('the pass upstream', () => {
  it('reads PASS_API_KEY and PASS_BASE_URL, defaulting to OpenRouter whose slugs the entries use', () => {
    expect(loadProviderConfigs({}, catalog).getProvider('pass')).toEqual({
      id: 'pass',
      kind: 'openai-compatible',
      baseUrl: 'https://openrouter.ai/api/v1',
      protocols: ['chat'],
    });
    expect(
      loadProviderConfigs({ PASS_API_KEY: 'sk-pass', PASS_BASE_URL: 'http://127.0.0.1:9/v1/' }, catalog).getProvider(
        'pass',
      ),
    ).toEqual({
      id: 'pass',
      kind: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-pass',
      protocols: ['chat'],
    });
    expect(() => loadProviderConfigs({ PASS_BASE_URL: 'ftp://x' }, catalog)).toThrow(ProviderConfigError);
  });

  it('answers 503 naming PASS_API_KEY when the operator has not configured it', () => {
    const adapters = { 'openai-compatible': createOpenAICompatibleAdapter() };
    expect(() => resolveTarget(catalog, loadProviderConfigs({}, catalog), adapters, 'pass/glm-4.7')).toThrow(
      /PASS_API_KEY/,
    );
    const target = resolveTarget(
      catalog,
      loadProviderConfigs({ PASS_API_KEY: 'k' }, catalog),
      adapters,
      'pass/glm-4.7',
    );
    expect(target.model.upstreamModel).toBe('z-ai/glm-4.7');
  });
});

describe('quota configuration', () => {
  it('defaults to 2 / 16 / 40 USD (5 hours / week / month)', () => {
    expect(loadConfig({}).passQuota).toEqual({
      fiveHourNanos: 2_000_000_000n,
      weeklyNanos: 16_000_000_000n,
      monthlyNanos: 40_000_000_000n,
    });
  });

  it('reads decimal USD amounts', () => {
    const config = loadConfig({
      MODELGATE_PASS_QUOTA_5H: '2.5',
      MODELGATE_PASS_QUOTA_WEEKLY: '20',
      MODELGATE_PASS_QUOTA_MONTHLY: '0.000000001',
    });
    expect(config.passQuota).toEqual({ fiveHourNanos: 2_500_000_000n, weeklyNanos: 20_000_000_000n, monthlyNanos: 1n });
  });

  it.each([
    ['MODELGATE_PASS_QUOTA_5H', '0'],
    ['MODELGATE_PASS_QUOTA_WEEKLY', '-3'],
    ['MODELGATE_PASS_QUOTA_MONTHLY', 'forty'],
    ['MODELGATE_PASS_QUOTA_MONTHLY', '2000000'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
