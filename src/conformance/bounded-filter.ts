// fast-check's `.filter` draws until a value passes, for ever: a schema the walker cannot satisfy (conflicting
// allOf branches, a pattern that never fits the length bounds) would hang the run. This filter gives up after a
// number of draws in a row with an error naming what it was drawing, which the runner reports as "untested"
// for that operation. Shrinking filters candidates as fast-check's own filter does.
import fc from 'fast-check';

const DEFAULT_TRIES = 500;

export class CannotDrawError extends Error {}

class BoundedFilterArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly arb: fc.Arbitrary<T>,
    private readonly predicate: (value: T) => boolean,
    private readonly what: string,
    private readonly tries: number,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    for (let i = 0; i < this.tries; i++) {
      const drawn = this.arb.generate(mrng, biasFactor);
      if (this.predicate(drawn.value)) return drawn;
    }
    throw new CannotDrawError(`no value of ${this.what} in ${this.tries} draws`);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arb.canShrinkWithoutContext(value) && this.predicate(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arb.shrink(value, context).filter((candidate) => this.predicate(candidate.value));
  }
}

export function boundedFilter<T>(
  arb: fc.Arbitrary<T>,
  predicate: (value: T) => boolean,
  what: string,
  tries = DEFAULT_TRIES,
): fc.Arbitrary<T> {
  return new BoundedFilterArbitrary(arb, predicate, what, tries);
}
