// openapi-backend routes and validates every request against the emitted OpenAPI document and dispatches by
// operationId. Order per request: route (404/405) → authenticate (401) → query names (400) → read the body (413,
// 400) → schema validation (400) → handler. The credential is judged from the headers before one byte of the body is
// read, so a client without one cannot make the gateway take in (and hold) its body; that answer closes the connection.
import type { Context as KoaContext, Middleware } from 'koa';
import {
  OpenAPIBackend,
  type Context as ApiContext,
  type Document,
  type Operation,
  type Request,
} from 'openapi-backend';
import addFormats from 'ajv-formats';
import definition from '../../generated/openapi.json' with { type: 'json' };
import { GatewayError } from '../core/gateway-error.js';
import { describeValidationErrors } from './validation-errors.js';
import { headerPicker, memoizeOpenApiBackend } from './openapi-backend-memo.js';
import { readRequestBody, type BodyState } from './read-json-body.js';
import { bodyLimitOf } from './body-limits.js';
import { checkQueryNames } from './query-names.js';
import type { ApiKeySource } from './authenticate.js';
import { rewriteGeminiModelPath } from '../formats/gemini/model-path.js';

export const API_ROOT = '/api/v1';

/**
 * The probes are also served at the server root, where load balancers and orchestrators look by default; the
 * document has them under the API root (decision in spec/health/routes.tsp). Same operation, same handler.
 */
const ROOT_ALIASES = new Map([
  ['/health', `${API_ROOT}/health`],
  ['/ready', `${API_ROOT}/ready`],
]);

export type Handler = (api: ApiContext, ctx: KoaContext) => Promise<void> | void;

export interface RouterOptions {
  handlers: Record<string, Handler>;
  /**
   * Resolves the caller or throws GatewayError(401), or 403 when its kind may not use the operation. Stores the
   * principal on ctx.state. `apiKeySources`: where the operation also takes an API key, from the `apiKey` schemes it
   * declares (`x-api-key` on the Messages routes; `x-goog-api-key` and `?key=` on the Gemini routes).
   * `operationId`: the routed operation, which decides what a management key may open.
   */
  authenticate: (ctx: KoaContext, apiKeySources?: readonly ApiKeySource[], operationId?: string) => Promise<void>;
  /** Largest body of the generation operations, bytes (MODELGATE_BODY_LIMIT_BYTES); see body-limits.ts for the rest. */
  generationBodyLimitBytes: number;
  /** Compile every operation's request validator now; false: each on its operation's first request (same checks). */
  precompileValidators: boolean;
}

const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/** The methods the document defines for `path`, asked of the library's own router so they are exactly what it routes. */
export function allowedMethods(api: OpenAPIBackend, path: string): string[] {
  return HTTP_METHODS.filter((method) => api.router.matchOperation({ method, path, headers: {} }, false)).map((m) =>
    m.toUpperCase(),
  );
}

/** The router, and the validation of a body against an operation's request schema for bodies that come another way. */
export type OpenApiRouter = Middleware & {
  /**
   * Validates `body` as the request body of `operationId`, as a request's is (the Responses WebSocket mode's
   * response.create frames are POST /responses bodies); throws the same 400 a request's would get.
   */
  validateBody(operationId: string, body: unknown): void;
};

export async function createOpenApiRouter(options: RouterOptions): Promise<OpenApiRouter> {
  const api = new OpenAPIBackend({
    definition: structuredClone(definition) as unknown as Document,
    apiRoot: API_ROOT,
    strict: true,
    // Quick mode compiles no validator up front; the request validators are compiled right after init (below). The
    // library would otherwise also compile a response validator per operation and status, which nothing here calls:
    // with the second release's document (31 operations, three API formats) that cost ~5 MB of live heap, ~17 MB of
    // RSS and 1.6 s of start-up. Quick mode also skips re-validating the document against the OpenAPI schema, which
    // the build does (Spectral, `make lint`; test/contract), and dereferences it synchronously.
    quick: true,
    validate: true,
    customizeAjv: (ajv) => {
      addFormats.default(ajv);
      return ajv;
    },
  });
  // An operation may accept several schemes (BearerAuth, and API key headers or query parameters); openapi-backend
  // asks each declared scheme, so all share one authentication per request: the one run before the body was read.
  const schemes =
    (definition as { components?: { securitySchemes?: Record<string, { type: string; in?: string; name?: string }> } })
      .components?.securitySchemes ?? {};
  // Per operation, once: the document never changes after init.
  const sourcesByOperation = new Map<Operation, ApiKeySource[]>();
  const sourcesOf = (operation: Operation) => {
    let sources = sourcesByOperation.get(operation);
    if (!sources) {
      sources = apiKeySources(operation, schemes);
      sourcesByOperation.set(operation, sources);
    }
    return sources;
  };
  const authenticateOnce = async (operation: Operation, ctx: KoaContext) => {
    const state = ctx.state as { authentication?: Promise<void> };
    state.authentication ??= options.authenticate(ctx, sourcesOf(operation), operation.operationId);
    await state.authentication;
    return true;
  };
  const securityHandler = (apiCtx: ApiContext, ctx: KoaContext) => authenticateOnce(apiCtx.operation, ctx);
  for (const name of Object.keys(schemes)) api.registerSecurityHandler(name, securityHandler);
  api.register({
    ...options.handlers,
    notFound: (_api: ApiContext, ctx: KoaContext) => {
      throw new GatewayError(404, `No such endpoint: ${ctx.method} ${ctx.path}`);
    },
    methodNotAllowed: (apiCtx: ApiContext, ctx: KoaContext) => {
      // RFC 9110 §15.5.6: a 405 names the methods the path does have.
      const allow = allowedMethods(api, apiCtx.request.path).join(', ');
      throw new GatewayError(
        405,
        `Method ${ctx.method} is not allowed on ${ctx.path} (allowed: ${allow})`,
        {},
        { Allow: allow },
      );
    },
    unauthorizedHandler: (apiCtx: ApiContext) => {
      const result = apiCtx.security?.BearerAuth as { error?: unknown } | undefined;
      // Anything but a GatewayError here is an infrastructure failure (database down), not a bad credential.
      throw result?.error ?? new GatewayError(401, 'Missing or invalid credential');
    },
    validationFail: (apiCtx: ApiContext) => {
      throw validationError(apiCtx.validation.errors ?? []);
    },
  });
  await api.init();
  // Otherwise the library compiles an operation's validators when it first validates one of its requests.
  if (options.precompileValidators) api.validator.preCompileRequestValidators();
  // Per-request work that depends only on the document (operation list ~5% of the gateway's CPU, parsing and
  // routing), done once; see openapi-backend-memo.ts.
  memoizeOpenApiBackend(api);
  const pickHeaders = headerPicker(api);

  const validateBody = (operationId: string, body: unknown) => {
    const request = { method: 'post', path: '/', headers: { 'content-type': 'application/json' }, query: '', body };
    const result = api.validator.validateRequest(request, operationId);
    if (!result.valid) throw validationError(result.errors ?? []);
  };
  const middleware: Middleware = async (ctx) => {
    const request: Request & { cookies: undefined; requestBody: undefined } = {
      method: ctx.method,
      path: ROOT_ALIASES.get(ctx.path) ?? rewriteGeminiModelPath(ctx.path),
      query: ctx.querystring,
      headers: pickHeaders(ctx.headers),
      body: undefined,
      // openapi-backend builds its parsed requests as `{ ...req, params, headers, query, cookies, requestBody }`.
      // V8 copies such a literal fast only when the spread object already has those keys; adding new ones makes
      // every literal slow, and there are several per request. Declared here, they are overwritten, never read.
      params: undefined,
      cookies: undefined,
      requestBody: undefined,
    };
    // Unrouted requests (404, 405) go to the library as they are, their body unread: it answers them first.
    const operation = api.router.matchOperation(request) as Operation | undefined;
    if (operation) {
      if (needsCredential(operation)) await authenticateOnce(operation, ctx);
      checkQueryNames(ctx.querystring);
      // A credential in the query (`?key=`, the Gemini routes) is the security scheme's, not a parameter to validate.
      const queryKeys = sourcesOf(operation).filter((source) => source.in === 'query');
      if (queryKeys.length > 0)
        request.query = withoutParameters(
          ctx.querystring,
          queryKeys.map((source) => source.name),
        );
      const state = ctx.state as BodyState;
      await readRequestBody(ctx, bodyLimitOf(operation.operationId, options.generationBodyLimitBytes));
      if (state.bodyError) throw state.bodyError;
      request.body = state.body;
    }
    await api.handleRequest(request, ctx);
  };
  return Object.assign(middleware, { validateBody });
}

function validationError(errors: Parameters<typeof describeValidationErrors>[0]): GatewayError {
  const described = describeValidationErrors(errors);
  return new GatewayError(400, described.message, { field: described.field, errors: described.errors });
}

/** The API key schemes an operation declares, in order, as places to read a credential from. */
function apiKeySources(
  operation: Operation,
  schemes: Record<string, { type: string; in?: string; name?: string }>,
): ApiKeySource[] {
  const sources: ApiKeySource[] = [];
  for (const requirement of operation.security ?? []) {
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      if (scheme?.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query') && scheme.name) {
        sources.push({ in: scheme.in, name: scheme.in === 'header' ? scheme.name.toLowerCase() : scheme.name });
      }
    }
  }
  return sources;
}

/** `querystring` without the named parameters (names compared as decoded). */
function withoutParameters(querystring: string, names: readonly string[]): string {
  if (querystring === '') return querystring;
  return querystring
    .split('&')
    .filter((piece) => {
      const name = piece.split('=', 1)[0];
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // kept: not a name of ours
      }
      return !names.includes(decoded);
    })
    .join('&');
}

/** An operation whose every security requirement names a scheme; `{}` among them (the probes) means none is needed. */
function needsCredential(operation: Operation): boolean {
  const requirements = operation.security ?? [];
  return requirements.length > 0 && requirements.every((requirement) => Object.keys(requirement).length > 0);
}
