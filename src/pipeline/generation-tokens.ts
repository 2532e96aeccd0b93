// The key's per-minute token budget as one generation spends it: the prompt's estimate was taken at admission, the
// generated text is counted as it streams, and at settlement the real usage replaces the estimates.
import type { Principal } from '../auth/principal.js';
import { rateBudgetsOf } from '../limits/admit-rate.js';
import type { GenerationParts } from './generation-parts.js';

export class GenerationTokens {
  /** Tokens taken from the budget so far. */
  private counted: number;

  constructor(
    private readonly parts: Pick<GenerationParts, 'limiter' | 'config' | 'now'>,
    private readonly principal: Principal,
    estimatedPromptTokens: number,
  ) {
    this.counted = estimatedPromptTokens;
  }

  /** Counts tokens against the budget; false once it is spent. */
  take(tokens: number): boolean {
    if (tokens <= 0) return true;
    this.counted += tokens;
    return this.parts.limiter.consumeTokens(
      rateBudgetsOf(this.principal, this.parts.config),
      tokens,
      this.parts.now().getTime(),
    );
  }

  /** The real usage in place of the estimates: what it adds to them is taken too. */
  settleTo(usedTokens: number): void {
    this.take(usedTokens - this.counted);
  }
}
