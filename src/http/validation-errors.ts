// Ajv errors → one readable sentence naming the offending field, plus the full list in metadata.
import type { ErrorObject } from 'ajv';

export interface DescribedErrors {
  message: string;
  field: string;
  errors: { field: string; message: string }[];
}

const LOCATION: Record<string, string> = { requestBody: 'body', query: 'query', path: 'path', header: 'header' };

export function fieldName(instancePath: string, missing?: string): string {
  const parts = instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (missing) parts.push(missing);
  const [root, ...rest] = parts;
  const prefix = root && LOCATION[root] && rest.length === 0 ? LOCATION[root] : '';
  const path = rest.reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
  return path || prefix || 'body';
}

function describe(error: ErrorObject): { field: string; message: string } {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return { field: fieldName(error.instancePath, String(params.missingProperty)), message: 'is required' };
  }
  if (error.keyword === 'enum') {
    return {
      field: fieldName(error.instancePath),
      message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    return { field: fieldName(error.instancePath, String(params.additionalProperty)), message: 'is not allowed' };
  }
  return { field: fieldName(error.instancePath), message: error.message ?? 'is invalid' };
}

// Union branches report every alternative's complaint; the deepest error is the one a human needs first.
function specificity(error: ErrorObject): number {
  const depth = error.instancePath.split('/').length;
  const generic = error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'discriminator' ? 0 : 1;
  return depth * 2 + generic;
}

export function describeValidationErrors(errors: ErrorObject[]): DescribedErrors {
  const described = errors.map(describe);
  const unique = described.filter(
    (d, i) => described.findIndex((o) => o.field === d.field && o.message === d.message) === i,
  );
  if (errors.length === 0) return { message: 'Invalid request', field: 'body', errors: [] };
  const best = errors.reduce((a, b) => (specificity(b) > specificity(a) ? b : a));
  const first = describe(best);
  return { message: `Invalid request: ${first.field} ${first.message}`, field: first.field, errors: unique };
}
