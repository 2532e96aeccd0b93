// Query parameters as openapi-backend hands them over (already validated against the document): strings, or
// arrays when repeated; the first value counts.
import type { Context as ApiContext } from 'openapi-backend';

export function queryString(api: ApiContext, name: string): string | undefined {
  const value = api.request.query[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : String(first);
}

export function queryInt(api: ApiContext, name: string, fallback: number): number {
  const text = queryString(api, name);
  return text === undefined ? fallback : Number.parseInt(text, 10);
}
