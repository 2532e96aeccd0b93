// Math.min and Math.max take numbers only; money and token counts are bigint, so they are compared here.

export function minBigInt(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}

export function maxBigInt(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}
