// One HTTP request the runner sends, described completely enough to replay it (curl line) and to know what the
// response must look like. The credential is kept twice: the real header value, and the form that may be shown.
import type { Operation } from './openapi-document.js';
export interface Credential {
  /** The Authorization header value sent. */
  header: string;
  /** The same for reports and curl lines, with secrets as shell variables (`Bearer $MODELGATE_API_KEY`). */
  shown: string;
}

/** What the response must be, beyond the checks every response gets. */
export type Expectation =
  /** The input breaks the schema (or is not JSON, or has the wrong content type): a 4xx. */
  | 'rejection'
  /** A missing, malformed or unknown credential: 401. */
  | 'unauthorized'
  /** A credential deleted earlier in this run: 401. */
  | 'deleted-credential';

export interface RequestSpec {
  operationId: string;
  method: string;
  /** Path relative to the API root, parameters substituted and encoded. */
  path: string;
  query: [string, string][];
  /** Request headers other than Authorization (lower-case names). */
  headers: Record<string, string>;
  authorization?: Credential;
  /** Raw body text exactly as sent (may be deliberately malformed). */
  body?: string;
  /** Human summary: "valid request" or what was broken. */
  description: string;
  expect?: Expectation;
}

export const API_KEY_VARIABLE = 'MODELGATE_API_KEY';
export const MANAGEMENT_KEY_VARIABLE = 'MODELGATE_MANAGEMENT_KEY';

/**
 * The operations that create, change or delete keys. Modelgate gives them to the account token and management keys
 * only (an API key may only revoke itself), so the kit sends them with the management credential when it has one.
 */
export const KEY_MANAGEMENT_OPERATIONS: ReadonlySet<string> = new Set(['createApiKey', 'updateApiKey', 'deleteApiKey']);

export function mainCredential(apiKey: string): Credential {
  return { header: `Bearer ${apiKey}`, shown: `Bearer $${API_KEY_VARIABLE}` };
}

/** The credential that manages keys (an account token or a management key), shown as `$MODELGATE_MANAGEMENT_KEY`. */
export function managementCredential(secret: string): Credential {
  return { header: `Bearer ${secret}`, shown: `Bearer $${MANAGEMENT_KEY_VARIABLE}` };
}

/** A key created during the run (then deleted): its value is never printed either. */
export function runCredential(secret: string, variable: string): Credential {
  return { header: `Bearer ${secret}`, shown: `Bearer $${variable}` };
}

/** Replace every secret in a text with a placeholder (response bodies and messages may echo them). */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out;
}

/** The parts of a request before they are placed into path, query, headers and body. */
export interface RequestParts {
  /** `<in>:<name>` → value; undefined leaves the parameter out. */
  params: Record<string, string | undefined>;
  body?: string;
  contentType?: string;
  accept?: string;
}

export function buildRequest(
  op: Operation,
  parts: RequestParts,
  request: { credential?: Credential; description: string; expect?: Expectation },
): RequestSpec {
  let path = op.path;
  const query: [string, string][] = [];
  const headers: Record<string, string> = {};
  for (const p of op.parameters) {
    const value = parts.params[`${p.in}:${p.name}`];
    if (value === undefined) continue;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(value));
    else if (p.in === 'query') query.push([p.name, value]);
    else if (p.in === 'header') headers[p.name.toLowerCase()] = value;
  }
  if (parts.contentType && parts.body !== undefined) headers['content-type'] = parts.contentType;
  if (parts.accept) headers.accept = parts.accept;
  return {
    operationId: op.operationId,
    method: op.method,
    path,
    query,
    headers,
    authorization: request.credential,
    body: parts.body,
    description: request.description,
    expect: request.expect,
  };
}
