// Small typed readers for hand-validating catalog JSON. Each failure names where it happened
// (source file, entry, field) so an operator can fix a MODELGATE_CATALOG file from the message alone.
import { CatalogError } from './catalog-error.js';

export type JsonObject = Record<string, unknown>;

export function fail(where: string, message: string): never {
  throw new CatalogError(`${where}: ${message}`);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readObject(value: unknown, where: string): JsonObject {
  if (!isObject(value)) fail(where, 'must be an object');
  return value;
}

/** Rejects keys outside `allowed`: a misspelt price column ("cache_read") must not silently
 *  fall back to another price. */
export function rejectUnknownKeys(obj: JsonObject, allowed: readonly string[], where: string): void {
  const unknown = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (unknown.length > 0) {
    fail(where, `unknown field(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}; allowed: ${allowed.join(', ')}`);
  }
}

export function readString(obj: JsonObject, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || v.trim() === '') fail(where, `${key} must be a non-empty string`);
  return v;
}

export function readOptionalString(obj: JsonObject, key: string, where: string): string | undefined {
  return obj[key] === undefined ? undefined : readString(obj, key, where);
}

export function readBoolean(obj: JsonObject, key: string, where: string): boolean {
  const v = obj[key];
  if (typeof v !== 'boolean') fail(where, `${key} must be true or false`);
  return v;
}

/** A whole number >= min (tokens, timestamps). */
export function readInteger(obj: JsonObject, key: string, where: string, min: number): number {
  const v = obj[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
    fail(where, `${key} must be an integer >= ${min}`);
  }
  return v;
}

export function readOptionalInteger(obj: JsonObject, key: string, where: string, min: number): number | undefined {
  return obj[key] === undefined ? undefined : readInteger(obj, key, where, min);
}

/** An absolute http(s) URL, returned without a trailing slash so paths join predictably. */
export function readHttpUrl(obj: JsonObject, key: string, where: string): string {
  const raw = readString(obj, key, where);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    fail(where, `${key} must be an absolute http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, `${key} must use http or https`);
  return raw.replace(/\/+$/, '');
}
