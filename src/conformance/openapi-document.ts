// The emitted OpenAPI 3.0 document as the conformance runner sees it: operations with their parameters,
// request body and documented responses, and `$ref` resolution. Everything else is derived from this, never
// hand-written per endpoint, so a new operation in spec/ is tested as soon as it is emitted.
import { readFile } from 'node:fs/promises';
import bundled from '../../generated/openapi.json' with { type: 'json' };

/** A JSON Schema node as OpenAPI 3.0 writes it (with `nullable` and `discriminator`). */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  default?: unknown;
}

/** A schema together with where it lives in the document, so the validator can check any sub-schema by pointer. */
export interface SchemaNode {
  pointer: string;
  schema: Schema;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: SchemaNode;
}

export interface DocumentedResponse {
  /** Header name (lower case) → whether it is required and its schema. */
  headers: Record<string, { required: boolean; schema: SchemaNode }>;
  /** Media type → schema. Empty when the response has no body. */
  content: Record<string, SchemaNode>;
}

export interface Operation {
  operationId: string;
  method: string;
  /** Path template relative to the API root, e.g. `/api-keys/{key_id}`. */
  path: string;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: Record<string, SchemaNode> };
  /** Status code (or `default`, `4XX`) → documented response. */
  responses: Record<string, DocumentedResponse>;
  /** Whether the operation declares a security requirement (every Modelgate operation but the health probes). */
  secured: boolean;
}

/** A `$ref` standing in for a parameter, request body, response or header, as OpenAPI allows. */
interface Reference {
  $ref: string;
}

/** The parts of an OpenAPI 3.0 document the runner reads; the rest is carried along unread (`raw` goes to Ajv). */
export interface RawDocument {
  openapi?: unknown;
  info?: { title?: unknown; version?: unknown };
  servers?: { url?: string }[];
  paths?: Record<string, RawPathItem>;
  security?: unknown;
  components?: { schemas?: Record<string, Schema> };
  [keyword: string]: unknown;
}

type RawPathItem = { parameters?: (RawParameter | Reference)[] } & { [method in Method]?: RawOperation };

interface RawOperation {
  operationId?: string;
  parameters?: (RawParameter | Reference)[];
  requestBody?: RawRequestBody | Reference;
  responses?: Record<string, RawResponse | Reference>;
  security?: unknown;
}

interface RawParameter {
  name: string;
  in: Parameter['in'];
  required?: boolean;
  schema?: Schema;
}

interface RawRequestBody {
  required?: boolean;
  content?: Record<string, RawMedia>;
}

interface RawResponse {
  headers?: Record<string, RawHeader | Reference>;
  content?: Record<string, RawMedia>;
}

interface RawHeader {
  required?: boolean;
  schema?: Schema;
}

interface RawMedia {
  schema?: Schema;
}

export interface OpenApiDocument {
  raw: RawDocument;
  title: string;
  version: string;
  /** Path of the first server URL (`/api/v1`), appended to a base URL given without a path. */
  serverPath: string;
  operations: Operation[];
  /** Follows `$ref`s (also chains of them) to the schema they name. */
  resolve(node: SchemaNode): SchemaNode;
  /** The schema a pointer (`#/components/schemas/X`) names. */
  at(pointer: string): SchemaNode;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
type Method = (typeof METHODS)[number];

/** The document this build of Modelgate was generated from, or one read from a file or URL. */
export async function loadDocument(source?: string): Promise<OpenApiDocument> {
  if (!source) return parseDocument(structuredClone(bundled));
  const text = /^https?:\/\//.test(source) ? await (await fetch(source)).text() : await readFile(source, 'utf8');
  return parseDocument(JSON.parse(text) as Record<string, unknown>);
}

function escapePointer(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

function isReference(value: unknown): value is Reference {
  return typeof value === 'object' && value !== null && typeof (value as Partial<Reference>).$ref === 'string';
}

/** A document read from JSON: the fields the runner reads have the types OpenAPI 3.0 gives them. */
export function parseDocument(document: Record<string, unknown>): OpenApiDocument {
  const raw = document as RawDocument;
  if (typeof raw.openapi !== 'string' || !raw.openapi.startsWith('3.0')) {
    throw new Error(`expected an OpenAPI 3.0 document, got openapi=${JSON.stringify(raw.openapi)}`);
  }
  const lookup = (pointer: string): unknown => {
    if (!pointer.startsWith('#')) throw new Error(`only local $refs are supported, got ${pointer}`);
    let value: unknown = raw;
    for (const token of pointer.slice(1).split('/').slice(1)) {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
      value = (value as Record<string, unknown> | undefined)?.[key];
      if (value === undefined) throw new Error(`unresolvable $ref ${pointer}`);
    }
    return value;
  };
  const resolve = (node: SchemaNode): SchemaNode => {
    let current = node;
    for (let hops = 0; current.schema.$ref; hops++) {
      if (hops > 32) throw new Error(`$ref cycle at ${node.pointer}`);
      current = { pointer: current.schema.$ref, schema: lookup(current.schema.$ref) as Schema };
    }
    return current;
  };
  // Parameters and responses may themselves be `$ref`s into components.
  const deref = <T>(value: T | Reference, pointer: string): { value: T; pointer: string } => {
    let current: { value: unknown; pointer: string } = { value, pointer };
    while (isReference(current.value)) {
      current = { value: lookup(current.value.$ref), pointer: current.value.$ref };
    }
    return current as { value: T; pointer: string };
  };

  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(raw.paths ?? {})) {
    const pathPointer = `#/paths/${escapePointer(path)}`;
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const opPointer = `${pathPointer}/${method}`;
      const parameters: Parameter[] = [];
      const declared = [
        ...(item.parameters ?? []).map((p, i) => deref(p, `${pathPointer}/parameters/${i}`)),
        ...(op.parameters ?? []).map((p, i) => deref(p, `${opPointer}/parameters/${i}`)),
      ];
      for (const { value: p, pointer } of declared) {
        parameters.push({
          name: p.name,
          in: p.in,
          required: p.in === 'path' || p.required === true,
          schema: { pointer: `${pointer}/schema`, schema: p.schema ?? {} },
        });
      }
      let requestBody: Operation['requestBody'];
      if (op.requestBody) {
        const body = deref(op.requestBody, `${opPointer}/requestBody`);
        requestBody = { required: body.value.required === true, content: contentOf(body.value.content, body.pointer) };
      }
      const responses: Record<string, DocumentedResponse> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const res = deref(response, `${opPointer}/responses/${escapePointer(status)}`);
        const headers: DocumentedResponse['headers'] = {};
        for (const [name, header] of Object.entries(res.value.headers ?? {})) {
          const h = deref(header, `${res.pointer}/headers/${escapePointer(name)}`);
          headers[name.toLowerCase()] = {
            required: h.value.required === true,
            schema: { pointer: `${h.pointer}/schema`, schema: h.value.schema ?? {} },
          };
        }
        responses[status] = { headers, content: contentOf(res.value.content, res.pointer) };
      }
      const security = op.security ?? raw.security ?? [];
      operations.push({
        operationId: op.operationId ?? `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        requestBody,
        responses,
        secured: Array.isArray(security) && security.some((req: object) => Object.keys(req).length > 0),
      });
    }
  }

  const serverUrl: string = raw.servers?.[0]?.url ?? '';
  let serverPath = '';
  try {
    serverPath = new URL(serverUrl, 'http://placeholder').pathname.replace(/\/$/, '');
  } catch {
    serverPath = '';
  }
  return {
    raw,
    title: String(raw.info?.title ?? 'API'),
    version: String(raw.info?.version ?? ''),
    serverPath,
    operations,
    resolve,
    at: (pointer) => resolve({ pointer, schema: lookup(pointer) as Schema }),
  };
}

function contentOf(content: Record<string, RawMedia> | undefined, pointer: string): Record<string, SchemaNode> {
  const out: Record<string, SchemaNode> = {};
  for (const [mediaType, media] of Object.entries(content ?? {})) {
    out[mediaType.toLowerCase()] = {
      pointer: `${pointer}/content/${escapePointer(mediaType)}/schema`,
      schema: media.schema ?? {},
    };
  }
  return out;
}

/** The documented response for a status: exact code first, then `4XX`-style ranges, then `default`. */
export function documentedResponse(op: Operation, status: number): DocumentedResponse | undefined {
  return op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`] ?? op.responses.default;
}

export function describeOperation(op: Operation): string {
  return `${op.method} ${op.path} (${op.operationId})`;
}
