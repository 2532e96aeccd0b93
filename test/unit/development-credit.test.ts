// The development user of a fresh `make run` must be able to call every model of the shipped catalog the way agent
// CLIs do, without max_tokens: the admission bound then assumes the model's whole output (openai/gpt-5.5: 128,000
// tokens at the long-prompt tier's 45 USD per 1M, 5.76 USD), and 5 USD was refused with 402. The need is computed from
// the catalog, with what the admission step itself reserves; README and the operations page name the same amount.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { maxCostNanos } from '../../src/billing/pricing.js';
import { reservationOutputTokens } from '../../src/billing/admission.js';
import { usdToNanos } from '../../src/core/money.js';
import { DEV_CREDITS_USD } from '../../src/cli/serve.js';

/** A bare "hi", and an agent CLI's first turn (its system prompt and tool schemas are some 20,000–40,000 tokens). */
const PROMPTS = [1, 50_000];
/** Agents run a few requests at once (subagents, a title request beside the turn); each holds its own bound. */
const AT_ONCE = 3;

describe("the development user's credit", () => {
  const models = loadCatalog({})
    .list()
    .filter((entry) => entry.accessMode === 'credits' && !entry.embedding);
  const bounds = models.flatMap((entry) =>
    PROMPTS.map((prompt) => ({
      id: entry.id,
      prompt,
      nanos: maxCostNanos(entry, prompt, reservationOutputTokens(entry, undefined, prompt)),
    })),
  );

  it(`covers ${AT_ONCE} requests without max_tokens to any model of the shipped catalog at once`, () => {
    expect(models.length).toBeGreaterThan(20);
    const dearest = bounds.reduce((a, b) => (b.nanos > a.nanos ? b : a));
    expect(dearest.nanos).toBeGreaterThan(usdToNanos('5'));
    expect(dearest.nanos * BigInt(AT_ONCE), `${dearest.id} with a ${dearest.prompt}-token prompt`).toBeLessThanOrEqual(
      usdToNanos(DEV_CREDITS_USD),
    );
  });

  it('is the amount README and the operations page name', () => {
    expect(readFileSync('README.md', 'utf8')).toContain(`\`dev@localhost\`, ${DEV_CREDITS_USD} USD of credits`);
    expect(readFileSync('docs/operations.md', 'utf8')).toContain(`\`dev@localhost\` with ${DEV_CREDITS_USD} USD`);
  });
});
