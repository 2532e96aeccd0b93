// The checks every response gets (the Schemathesis set), each a pure function of the operation, the exchange and
// the document. A check returns a failure message or nothing; checks that do not apply stay silent.
import { MESSAGES_EVENT_STREAM, messagesEventStreamProblem } from './messages-event-stream.js';
import { documentedResponse, type OpenApiDocument, type Operation } from './openapi-document.js';
import type { SchemaValidator } from './schema-validator.js';
import type { Exchange } from './http-exchange.js';
import { eventStreamFailures } from './stream-checks.js';

/** The checks every single response gets, whatever the input. */
const PER_RESPONSE_CHECKS = [
  'response_received',
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'response_schema_conformance',
] as const;

/** Checks of event-stream answers (stream-checks.ts), on operations that document one. */
export const STREAM_CHECKS = ['stream_framing', 'mid_stream_error'] as const;

export const CHECK_NAMES = [
  // Whether the route answers at all (404 from an extension → "not implemented", from a core operation → failed).
  'route_implemented',
  ...PER_RESPONSE_CHECKS,
  ...STREAM_CHECKS,
  'unsupported_method',
  'negative_data_rejection',
  'ignored_auth',
  'use_after_free',
  // Model-based sequences: their own invariants, beyond the per-response checks above.
  'stateful_keys',
  'stateful_credits',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export const RESPONSE_CHECKS: readonly CheckName[] = PER_RESPONSE_CHECKS;

export interface CheckFailure {
  check: CheckName;
  message: string;
}

export interface CheckContext {
  doc: OpenApiDocument;
  validator: SchemaValidator;
}

/** Every response must carry it (ARCHITECTURE.md: request id on every response), documented or not. */
export const REQUEST_ID_HEADER = 'x-request-id';

export function checkExchange(ctx: CheckContext, op: Operation, ex: Exchange): CheckFailure[] {
  if (ex.status === undefined)
    return [{ check: 'response_received', message: `no response: ${ex.error ?? 'unknown error'}` }];
  const failures: CheckFailure[] = [];
  const add = (check: CheckName, message: string | undefined) => {
    if (message) failures.push({ check, message });
  };
  const status = ex.status;
  add('not_a_server_error', status >= 500 ? `server error ${status}` : undefined);
  const documented = documentedResponse(op, status);
  add(
    'status_code_conformance',
    documented
      ? undefined
      : `status ${status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`,
  );
  const mediaType = (ex.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (documented) {
    add('content_type_conformance', contentTypeProblem(Object.keys(documented.content), mediaType, ex.body));
    add('response_headers_conformance', headersProblem(ctx, documented.headers, ex.headers));
    const schema = documented.content[mediaType];
    if (mediaType === 'text/event-stream' && schema)
      failures.push(...eventStreamFailures(ctx.doc, ctx.validator, op, ex.body));
    else if (schema) add('response_schema_conformance', bodyProblem(ctx, mediaType, schema.pointer, ex.body));
  } else {
    add(
      'response_headers_conformance',
      ex.headers[REQUEST_ID_HEADER] ? undefined : `missing ${REQUEST_ID_HEADER} header`,
    );
  }
  const expect = ex.request.expect;
  if (expect === 'rejection' && status < 400)
    add('negative_data_rejection', `invalid input (${ex.request.description}) was accepted with ${status}`);
  if (expect === 'unauthorized' && status !== 401)
    add('ignored_auth', `expected 401 for ${ex.request.description.split(';')[0]}, got ${status}`);
  if (expect === 'deleted-credential' && status !== 401)
    add('use_after_free', `a deleted key was answered with ${status}, expected 401`);
  return failures;
}

function contentTypeProblem(documented: string[], mediaType: string, body: string): string | undefined {
  if (documented.length === 0)
    return body.length > 0 ? `undocumented response body (${mediaType || 'no content type'})` : undefined;
  if (!mediaType) return body.length > 0 ? `no Content-Type header (documented: ${documented.join(', ')})` : undefined;
  const matches = documented.some(
    (d) => d === mediaType || (d.endsWith('/*') && mediaType.startsWith(d.slice(0, -1))) || d === '*/*',
  );
  return matches ? undefined : `Content-Type ${mediaType} is not documented (documented: ${documented.join(', ')})`;
}

function headersProblem(
  ctx: CheckContext,
  documented: Record<string, { required: boolean; schema: { pointer: string } }>,
  actual: Record<string, string>,
): string | undefined {
  const problems: string[] = [];
  if (!actual[REQUEST_ID_HEADER]) problems.push(`missing ${REQUEST_ID_HEADER} header`);
  for (const [name, header] of Object.entries(documented)) {
    const value = actual[name];
    if (value === undefined) {
      if (header.required && name !== REQUEST_ID_HEADER) problems.push(`missing required header ${name}`);
      continue;
    }
    const result = ctx.validator.validate(header.schema.pointer, coerceHeader(ctx, header.schema.pointer, value));
    if (!result.valid) problems.push(`header ${name}: ${JSON.stringify(value)} ${result.errors.join('; ')}`);
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}

/** Header values are text on the wire; numeric header schemas are checked against the number the text spells. */
function coerceHeader(ctx: CheckContext, pointer: string, value: string): unknown {
  const type = ctx.doc.at(pointer).schema.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim()))
    return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function bodyProblem(ctx: CheckContext, mediaType: string, pointer: string, body: string): string | undefined {
  if (mediaType === 'text/event-stream' && ctx.doc.at(pointer).pointer === MESSAGES_EVENT_STREAM)
    return messagesEventStreamProblem(ctx.validator, body);
  if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `body is not JSON: ${body.slice(0, 120)}`;
  }
  const result = ctx.validator.validate(pointer, value);
  return result.valid ? undefined : `body does not match ${pointer}: ${result.errors.join('; ')}`;
}
