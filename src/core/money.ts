// Money inside the gateway is integer nano-dollars (bigint). These helpers are the only place where
// USD decimals become nanos and back, so rounding happens in one documented way.

/** 1 USD in nano-dollars. */
export const NANOS_PER_USD = 1_000_000_000n;

/** Decimal digits of a nano-dollar amount: 1 nano = 1e-9 USD. */
const NANO_SCALE = 9;

// A plain decimal, optionally signed, optionally with an exponent ("0.075", "-2", ".5", "1e-7", "2.5E3").
const DECIMAL = /^([+-])?(\d+\.?\d*|\.\d+)(?:[eE]([+-]?\d+))?$/;

/**
 * An exact decimal value = sign × digits × 10^-scale, parsed from text without going through
 * binary floating point.
 */
interface ExactDecimal {
  negative: boolean;
  digits: bigint;
  scale: number;
}

function parseExactDecimal(text: string): ExactDecimal | undefined {
  const m = DECIMAL.exec(text);
  if (!m) return undefined;
  const [, sign, mantissa, exponent] = m;
  const dot = mantissa.indexOf('.');
  const intPart = dot === -1 ? mantissa : mantissa.slice(0, dot);
  const fracPart = dot === -1 ? '' : mantissa.slice(dot + 1);
  const exp = exponent === undefined ? 0 : Number(exponent);
  // Guard against absurd exponents that would build gigantic bigints.
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 400) return undefined;
  return {
    negative: sign === '-',
    digits: BigInt((intPart + fracPart).replace(/^0+(?=\d)/, '') || '0'),
    scale: fracPart.length - exp,
  };
}

/**
 * Rescale an exact decimal to `targetScale` fractional digits as an integer, rounding half away
 * from zero (so 0.5 nano → 1 nano and -0.5 nano → -1 nano; a refund rounds like the charge).
 */
function toScaledInteger(d: ExactDecimal, targetScale: number): bigint {
  const shift = targetScale - d.scale;
  let magnitude: bigint;
  if (shift >= 0) {
    magnitude = d.digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    magnitude = (d.digits * 2n + divisor) / (divisor * 2n);
  }
  return d.negative ? -magnitude : magnitude;
}

/**
 * USD → nano-dollars, rounded to the nearest nano (half away from zero).
 * Decimal strings are converted exactly. Numbers are converted through their shortest
 * round-trip decimal form (`String(0.075)` is "0.075"), which is the decimal a human wrote in a
 * JSON file or config, so 0.075 gives exactly 75_000_000n and never 74_999_999n.
 * Rejects NaN, ±Infinity and anything that is not a plain decimal.
 */
export function usdToNanos(usd: number | string): bigint {
  if (typeof usd === 'number' && !Number.isFinite(usd)) {
    throw new RangeError(`usdToNanos: not a finite number: ${usd}`);
  }
  const text = typeof usd === 'number' ? String(usd) : usd.trim();
  const parsed = parseExactDecimal(text);
  if (!parsed) throw new RangeError(`usdToNanos: not a decimal number: ${JSON.stringify(usd)}`);
  return toScaledInteger(parsed, NANO_SCALE);
}

/**
 * Exact decimal text of `value × 10^-scale`, without exponent and without trailing zeros
 * ("0.0000025", "12", "-0.5"). Used for wire strings such as OpenRouter-style per-token prices.
 */
export function formatScaledDecimal(value: bigint, scale: number): string {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`formatScaledDecimal: bad scale ${scale}`);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const intPart = digits.slice(0, digits.length - scale);
  const fracPart = digits.slice(digits.length - scale).replace(/0+$/, '');
  const body = fracPart ? `${intPart}.${fracPart}` : intPart;
  return negative && body !== '0' ? `-${body}` : body;
}

/** nano-dollars → USD number for the API edge. Goes through the exact decimal text so the result
 *  is the double nearest to the true value (not the result of a lossy float division). */
export function nanosToUsd(nanos: bigint): number {
  return Number(formatScaledDecimal(nanos, NANO_SCALE));
}
