// Per-operation request arbitraries, all derived from the OpenAPI document: valid requests (parameters, headers,
// body), invalid ones (schema mutations, malformed JSON, wrong content type, broken parameters) and requests with
// missing or bad credentials.
import fc from 'fast-check';
import type { OpenApiDocument, Operation, Parameter, Schema, SchemaNode } from './openapi-document.js';
import type { SchemaValidator } from './schema-validator.js';
import { SchemaArbitraries, type ArbitraryOptions } from './schema-arbitrary.js';
import { mutationsOf } from './schema-mutations.js';
import { boundedFilter } from './bounded-filter.js';
import { EMBEDDING_OPERATIONS } from './choose-models.js';
import {
  API_KEY_VARIABLE,
  buildRequest,
  KEY_MANAGEMENT_OPERATIONS,
  MANAGEMENT_KEY_VARIABLE,
  type Credential,
  type RequestParts,
  type RequestSpec,
} from './request-spec.js';

export interface RequestContext {
  apiKey: string;
  /** Credential for the operator API (paths under /admin); without it those requests carry `apiKey` too. */
  adminApiKey?: string;
  /** Credential for the key-management operations (KEY_MANAGEMENT_OPERATIONS); without it they carry `apiKey`. */
  managementKey?: string;
  /** A model the deployment serves: valid bodies with a `model` property mostly name it. */
  model?: string;
  /** An embedding model it serves, named instead by the bodies of EMBEDDING_OPERATIONS. */
  embeddingModel?: string;
}

const JSON_TYPE = 'application/json';
// With the u flag a surrogate pair is one code point, so this matches only unpaired halves.
const LONE_SURROGATE = /[\ud800-\udfff]/u;
// Header values must be visible ASCII (RFC 9110 field-value); leading/trailing spaces would be trimmed in transit.
/**
 * Modelgate's optional `X-Modelgate-*` request headers switch a feature on (the response cache, …): absent, the
 * operation behaves as the seed API says. Their grammar is checked by the gateway (a 400 naming the token), not by a
 * schema, and tested where the feature is; generated requests leave them out, so a random value is not taken for a
 * valid request and another implementation of the seed API is not judged on them.
 */
function isFeatureSwitch(p: Parameter): boolean {
  return p.in === 'header' && !p.required && /^x-modelgate-/i.test(p.name);
}

const HEADER_VALUE = /^[\x21-\x7e]([\x20-\x7e]{0,38}[\x21-\x7e])?$/;

/** A path segment must route: not empty and not a dot segment that URL normalisation would swallow. Lone surrogates
 *  cannot be percent-encoded (encodeURIComponent throws), so they stay out of paths. */
function pathSafe(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !LONE_SURROGATE.test(value);
}

export class RequestArbitraries {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly validator: SchemaValidator,
    private readonly context: RequestContext,
    private readonly options: ArbitraryOptions = {},
  ) {}

  /** Requests the document says are valid (the server may still refuse them for reasons the schema cannot express). */
  valid(op: Operation): fc.Arbitrary<RequestSpec> {
    return this.validParts(op).map((parts) => this.toSpec(op, parts, 'valid request'));
  }

  /** Requests broken in one place; `expect: 'rejection'` when the break is one the schema forbids. */
  invalid(op: Operation): fc.Arbitrary<RequestSpec> | undefined {
    const kinds: fc.WeightedArbitrary<RequestSpec>[] = [];
    const body = this.jsonBody(op);
    if (body) {
      kinds.push({ weight: 6, arbitrary: this.mutatedBody(op, body) });
      kinds.push({ weight: 1, arbitrary: this.malformedJson(op) });
      kinds.push({ weight: 1, arbitrary: this.wrongContentType(op) });
      if (op.requestBody?.required) {
        kinds.push({
          weight: 1,
          arbitrary: this.validParts(op).map((p) =>
            this.toSpec(op, { ...p, body: undefined }, 'required body missing', 'rejection'),
          ),
        });
      }
    }
    const brokenParams = this.brokenParameter(op);
    if (brokenParams) kinds.push({ weight: 2, arbitrary: brokenParams });
    return kinds.length > 0 ? fc.oneof(...kinds) : undefined;
  }

  /** Valid or invalid requests with a missing, malformed or unknown credential. */
  unauthorized(op: Operation): fc.Arbitrary<RequestSpec> {
    const { secret: key, variable } = this.keyFor(op);
    const credentials: fc.Arbitrary<{ credential?: Credential; what: string }> = fc.oneof(
      fc.constant({ what: 'no Authorization header' }),
      fc.constant({
        credential: { header: 'Basic dXNlcjpwYXNzd29yZA==', shown: 'Basic dXNlcjpwYXNzd29yZA==' },
        what: 'Basic instead of Bearer',
      }),
      fc.constant({ credential: { header: 'Bearer', shown: 'Bearer' }, what: 'Bearer without a token' }),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,60}$/).map((token) => ({
        credential: { header: `Bearer ${token}`, shown: `Bearer ${token}` },
        what: 'unknown token',
      })),
      fc.constant({
        credential: { header: `Bearer ${key}x`, shown: `Bearer \${${variable}}x` },
        what: 'valid key with a character appended',
      }),
      fc.constant({
        credential: { header: `Bearer ${key.slice(0, -1)}`, shown: `Bearer \${${variable}%?}` },
        what: 'valid key with its last character removed',
      }),
    );
    const requests = this.invalid(op)
      ? fc.oneof({ weight: 3, arbitrary: this.valid(op) }, { weight: 1, arbitrary: this.invalid(op)! })
      : this.valid(op);
    return fc.tuple(requests, credentials).map(([req, c]) => ({
      ...req,
      authorization: c.credential,
      description: `${c.what}; ${req.description}`,
      expect: 'unauthorized' as const,
    }));
  }

  private jsonBody(op: Operation): SchemaNode | undefined {
    return op.requestBody?.content[JSON_TYPE];
  }

  private validParts(op: Operation): fc.Arbitrary<RequestParts> {
    const params = op.parameters.filter((p) => p.in !== 'cookie' && !isFeatureSwitch(p));
    const values = params.map((p) =>
      p.required
        ? this.parameterValue(p).map((v): string | undefined => v)
        : fc.option(this.parameterValue(p), { nil: undefined }),
    );
    const body = this.jsonBody(op);
    const model = EMBEDDING_OPERATIONS.has(op.operationId) ? this.context.embeddingModel : this.context.model;
    const bodyArb: fc.Arbitrary<unknown> = body ? this.bodyArbitrary(body, model) : fc.constant(undefined);
    return fc
      .record({ params: fc.tuple(...values), body: bodyArb, accept: this.acceptHeader(op) })
      .map(({ params: got, body: value, accept }) => ({
        params: Object.fromEntries(params.map((p, i) => [`${p.in}:${p.name}`, got[i]])),
        body: value === undefined ? undefined : JSON.stringify(value),
        contentType: value === undefined ? undefined : JSON_TYPE,
        accept,
      }));
  }

  private bodyArbitrary(node: SchemaNode, model: string | undefined): fc.Arbitrary<unknown> {
    const arbitraries = new SchemaArbitraries(this.doc, {
      ...this.options,
      overrides: this.servedModelOverrides(node, model),
    });
    // A last guard: only values the document's own validator accepts count as valid.
    return boundedFilter(
      arbitraries.of(node),
      (value) => this.validator.isValid(node.pointer, value),
      `a body valid against ${node.pointer}`,
    );
  }

  /**
   * Bodies naming a model mostly name one the deployment serves, and conversations mostly contain a user message
   * (the spec requires one; the schema cannot say so), so valid requests get past 404/400 to the real path.
   */
  private servedModelOverrides(node: SchemaNode, model: string | undefined): ArbitraryOptions['overrides'] {
    const root = this.doc.resolve(node).schema;
    const overrides: NonNullable<ArbitraryOptions['overrides']> = {};
    if (model && root.properties?.model) {
      overrides['/model'] = (own) =>
        fc.oneof({ weight: 12, arbitrary: fc.constant(model) }, { weight: 1, arbitrary: own });
    }
    const userMessage = this.userMessageSchema(root.properties?.messages);
    if (userMessage) {
      const user = new SchemaArbitraries(this.doc, this.options).of(userMessage);
      overrides['/messages'] = (own) =>
        fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(own, user, fc.nat()).map(([messages, u, at]) => insertAt(messages as unknown[], u, at)),
          },
          { weight: 1, arbitrary: own },
        );
    }
    if (root.properties?.contents && root.properties?.generationConfig) {
      // Gemini bodies: mostly one user text turn and no Google-only tools, the shape every model takes; drawn parts
      // (a thought in a user turn, a response to no call, googleSearch for a non-Google model) are mostly 400s.
      const words = fc.string({ minLength: 1, maxLength: 40 }).filter((text) => text.trim() !== '');
      overrides['/contents'] = (own) =>
        fc.oneof(
          { weight: 4, arbitrary: words.map((text) => [{ role: 'user', parts: [{ text }] }]) },
          { weight: 1, arbitrary: own },
        );
      overrides['/tools'] = (own) =>
        fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: own });
    }
    return overrides;
  }

  private userMessageSchema(messages: Schema | undefined): SchemaNode | undefined {
    if (!messages) return undefined;
    const items = this.doc.resolve({ pointer: '', schema: messages }).schema.items;
    if (!items) return undefined;
    const target = this.doc.resolve({ pointer: '', schema: items }).schema.discriminator?.mapping?.user;
    return target ? this.doc.at(target) : undefined;
  }

  private parameterValue(p: Parameter): fc.Arbitrary<string> {
    if (p.in === 'header') {
      // A header with a pattern gets values of it; the rest any visible text.
      const pattern = this.doc.resolve(p.schema).schema.pattern;
      if (!pattern) return fc.stringMatching(HEADER_VALUE);
      return boundedFilter(
        fc.stringMatching(new RegExp(pattern, 'u')),
        (v) => HEADER_VALUE.test(v),
        `a header value matching ${pattern}`,
      );
    }
    const arb = new SchemaArbitraries(this.doc, this.options)
      .of(p.schema)
      .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
    // A path that names the model (the Gemini door's /models/{model}:generateContent) mostly names one the deployment
    // serves, as bodies with a `model` do, so valid requests reach the real path.
    if (p.in === 'path' && p.name === 'model' && this.context.model)
      return fc.oneof(
        { weight: 12, arbitrary: fc.constant(this.context.model) },
        { weight: 1, arbitrary: arb.filter(pathSafe) },
      );
    return p.in === 'path' ? arb.filter(pathSafe) : arb;
  }

  /** When a success response has more than one media type (JSON or SSE), vary the Accept header over them. */
  private acceptHeader(op: Operation): fc.Arbitrary<string | undefined> {
    const types = new Set<string>();
    for (const [status, response] of Object.entries(op.responses)) {
      if (status.startsWith('2')) for (const type of Object.keys(response.content)) types.add(type);
    }
    return types.size > 1 ? fc.constantFrom(undefined, '*/*', ...types) : fc.constant(undefined);
  }

  private mutatedBody(op: Operation, node: SchemaNode): fc.Arbitrary<RequestSpec> {
    return this.validParts(op).chain((parts) => {
      const mutations = mutationsOf(this.doc, this.validator, node, JSON.parse(parts.body!));
      return fc.constantFrom(...mutations).map((mutation) => {
        const value = mutation.build();
        const rejected = !this.validator.isValid(node.pointer, value);
        return this.toSpec(
          op,
          { ...parts, body: JSON.stringify(value) },
          mutation.description,
          rejected ? 'rejection' : undefined,
        );
      });
    });
  }

  private malformedJson(op: Operation): fc.Arbitrary<RequestSpec> {
    const breaks: [string, (s: string) => string][] = [
      ['malformed JSON (truncated)', (s) => s.slice(0, Math.max(1, s.length - 1))],
      ['malformed JSON (trailing garbage)', (s) => `${s}}`],
      ['malformed JSON (single quotes)', (s) => s.replaceAll('"', "'")],
      ['malformed JSON (NaN literal)', () => '{"value": NaN}'],
      ['malformed JSON (unquoted key)', () => '{model: 1}'],
    ];
    return fc.tuple(this.validParts(op), fc.constantFrom(...breaks)).map(([parts, [what, brk]]) => {
      const body = brk(parts.body ?? '{}');
      // `{}` has no quotes to swap: only text that really fails to parse must be rejected.
      return this.toSpec(op, { ...parts, body }, what, parsesAsJson(body) ? undefined : 'rejection');
    });
  }

  private wrongContentType(op: Operation): fc.Arbitrary<RequestSpec> {
    const types = [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/xml',
      'multipart/form-data; boundary=x',
      undefined,
    ];
    return fc
      .tuple(this.validParts(op), fc.constantFrom(...types))
      .map(([parts, type]) =>
        this.toSpec(op, { ...parts, contentType: type }, `wrong content type (${type ?? 'none'})`, 'rejection'),
      );
  }

  /** A required query/header parameter left out, or a string parameter outside its schema. */
  private brokenParameter(op: Operation): fc.Arbitrary<RequestSpec> | undefined {
    const candidates = op.parameters.filter((p) => (p.in === 'query' || p.in === 'header') && !isFeatureSwitch(p));
    const breaks: fc.Arbitrary<RequestSpec>[] = [];
    for (const p of candidates) {
      const key = `${p.in}:${p.name}`;
      if (p.required) {
        breaks.push(
          this.validParts(op).map((parts) =>
            this.toSpec(
              op,
              { ...parts, params: { ...parts.params, [key]: undefined } },
              `required ${p.in} parameter "${p.name}" missing`,
              'rejection',
            ),
          ),
        );
      }
      const schema = this.doc.resolve(p.schema);
      const wrong = stringViolations(schema.schema).filter((s) => !this.validator.isValid(schema.pointer, s));
      if (wrong.length > 0) {
        breaks.push(
          fc
            .tuple(this.validParts(op), fc.constantFrom(...wrong))
            .map(([parts, value]) =>
              this.toSpec(
                op,
                { ...parts, params: { ...parts.params, [key]: value } },
                `${p.in} parameter "${p.name}" = ${JSON.stringify(value)} breaks its schema`,
                'rejection',
              ),
            ),
        );
      }
    }
    return breaks.length > 0 ? fc.oneof(...breaks) : undefined;
  }

  private toSpec(op: Operation, parts: RequestParts, description: string, expect?: RequestSpec['expect']): RequestSpec {
    const { secret, variable } = this.keyFor(op);
    return buildRequest(op, parts, {
      credential: op.secured ? { header: `Bearer ${secret}`, shown: `Bearer $${variable}` } : undefined,
      description,
      expect,
    });
  }

  /** The secret an operation's requests carry, and the shell variable that stands for it in reports. */
  private keyFor(op: Operation): { secret: string; variable: string } {
    const { apiKey, adminApiKey, managementKey } = this.context;
    if (op.path.startsWith('/admin/') && adminApiKey !== undefined)
      return { secret: adminApiKey, variable: API_KEY_VARIABLE };
    if (KEY_MANAGEMENT_OPERATIONS.has(op.operationId) && managementKey !== undefined)
      return { secret: managementKey, variable: MANAGEMENT_KEY_VARIABLE };
    return { secret: apiKey, variable: API_KEY_VARIABLE };
  }
}

function insertAt<T>(items: T[], item: T, at: number): T[] {
  const i = at % (items.length + 1);
  return [...items.slice(0, i), item, ...items.slice(i)];
}

/** String forms (query and header values are strings) that break a parameter schema. */
function stringViolations(schema: Schema): string[] {
  const out: string[] = [];
  if ((schema.minLength ?? 0) > 0) out.push('');
  if (schema.maxLength !== undefined) out.push('x'.repeat(schema.maxLength + 1));
  if (schema.enum) out.push('not-a-documented-value');
  if (schema.type === 'integer' || schema.type === 'number') out.push('twelve');
  if (schema.pattern) out.push(' ');
  return out;
}

function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
