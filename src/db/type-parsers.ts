// One definition of how PostgreSQL text values become JS values, shared by the `pg` pool and PGlite,
// so repositories see identical types on both backends.

/** PostgreSQL type OID of int8/BIGINT (also what `count(*)` returns). */
export const INT8_OID = 20;

/**
 * int8/BIGINT → `bigint`, always. Both drivers default to something else (`pg`: string; PGlite:
 * number when it fits), and money columns must never round-trip through a float.
 */
export function parseInt8(value: string): bigint {
  return BigInt(value);
}
