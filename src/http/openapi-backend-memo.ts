// openapi-backend recomputes, on every request, things that depend only on the OpenAPI document, which never
// changes after init: the operation list, the route of a (method, path) and the path parameters of a path; and it
// parses each request three times (before routing, after routing, and again, identically, inside validation). This
// builds the list once, remembers routes and path parameters, and makes the third parse a copy of the second, all
// with the library's own functions, so routing and validation results, and their order, stay exactly the library's.
import type { OpenAPIBackend, Operation, ParsedRequest, Request } from 'openapi-backend';

/** Distinct routed (method, path) pairs remembered; past this the memo starts over (paths with ids are unbounded). */
const MAX_ROUTES = 1_000;

export function memoizeOpenApiBackend(api: OpenAPIBackend): void {
  const router = api.router;
  const operations = router.getOperations();
  router.getOperations = () => operations;

  // Only matches are remembered: 404 and 405 throw from the library each time, as before.
  const matchOperation = router.matchOperation.bind(router) as (
    req: Request,
    strict?: boolean,
  ) => Operation | undefined;
  const shadowing = shadowingTemplates(operations);
  const routes = new Map<string, Operation>();
  router.matchOperation = ((req: Request, strict?: boolean) => {
    const key = `${req.method} ${req.path}`;
    const known = routes.get(key);
    if (known) return known;
    let operation = matchOperation(req, strict);
    // A path a more specific template claims belongs to that template's operations: another method there is a 405
    // (GET /gemini/v1beta/models/x:generateContent is not GET /gemini/v1beta/models/{model} with model
    // "x:generateContent").
    if (operation && shadowing.get(operation)?.some((pattern) => pattern.test(router.normalizePath(req.path)))) {
      if (strict) throw new Error('405-methodNotAllowed: this method is not registered for the route');
      operation = undefined;
    }
    if (operation) {
      if (routes.size >= MAX_ROUTES) routes.clear();
      routes.set(key, operation);
    }
    return operation;
  }) as typeof router.matchOperation;

  // The request parsed for the matched operation is handed to the handler (api.request); validation parses the
  // same request again and mutates its copy (array query values, Ajv type coercion). It gets a fresh copy of the
  // first parse instead of a second parse: same values, and the handler's view stays untouched as before.
  const parseRequest = router.parseRequest.bind(router);
  const parsed = new WeakMap<Request, { operation: Operation; request: ParsedRequest }>();
  const parseForOperation = pathParamsMemo(parseRequest);
  router.parseRequest = (req: Request, operation?: Operation) => {
    if (!operation) return parseRequest(req);
    const earlier = parsed.get(req);
    if (earlier?.operation === operation) return copyParsed(earlier.request);
    const request = parseForOperation(req, operation);
    parsed.set(req, { operation, request });
    return request;
  };
}

/** The library's own template → pattern rule (router.js pathTemplateToPattern): `{param}` matches one segment. */
function templatePattern(path: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${path
      .replace(/\{[^}]+\}/g, '\0')
      .split('\0')
      .map(literal)
      .join('[^/]+')}$`,
  );
}

/**
 * For each templated operation, the patterns of the other paths that match wherever it matches and say more
 * (more literal characters, as the library ranks them): `/models/{model}:generateContent` over `/models/{model}`.
 */
function shadowingTemplates(operations: Operation[]): Map<Operation, RegExp[]> {
  const literalLength = (path: string) => path.replace(/\{.*?\}/g, '').length;
  const templated = operations.filter((op) => op.path.includes('{'));
  const shadowing = new Map<Operation, RegExp[]>();
  for (const op of templated) {
    const segments = op.path.split('/').length;
    const more = templated.filter(
      (other) =>
        other.path !== op.path &&
        other.path.split('/').length === segments &&
        literalLength(other.path) > literalLength(op.path) &&
        templatePattern(op.path).test(other.path.replace(/\{[^}]+\}/g, 'x')),
    );
    if (more.length > 0) shadowing.set(op, [...new Set(more.map((other) => other.path))].map(templatePattern));
  }
  return shadowing;
}

/**
 * Parsing for an operation differs from the plain parse only in the path parameters (from the operation's path
 * template and the request path) and, when the query has values, in how those are decoded. The library compiles the
 * path template into a matcher on every such parse (~6 µs, a third of its work per request); the parameters of a
 * (operation, path) pair are taken once from the library's own parse and reused while the query is empty.
 */
function pathParamsMemo(parseRequest: (req: Request, operation?: Operation) => ParsedRequest) {
  const known = new Map<string, ParsedRequest['params']>();
  return (req: Request, operation: Operation): ParsedRequest => {
    const key = `${operation.method} ${operation.path} ${req.path}`;
    const params = known.get(key);
    if (params) {
      const plain = parseRequest(req);
      if (Object.keys(plain.query).length === 0) return { ...plain, params: { ...params } };
    }
    const request = parseRequest(req, operation);
    if (!params) {
      if (known.size >= MAX_ROUTES) known.clear();
      known.set(key, { ...request.params });
    }
    return request;
  };
}

/**
 * The request headers openapi-backend uses: the header parameters the document declares, `content-type` (it
 * decides whether a body is validated) and `cookie` when cookie parameters exist. It lowercases and copies every
 * header it is given on each of its parses; the others (authorization, user-agent, ...) are read from Koa's context.
 */
export function headerPicker(
  api: OpenAPIBackend,
): (headers: NodeJS.Dict<string | string[]>) => Record<string, string | string[]> {
  const names = new Set(['content-type']);
  for (const operation of api.router.getOperations()) {
    for (const parameter of operation.parameters ?? []) {
      if (!('in' in parameter)) continue;
      if (parameter.in === 'header') names.add(parameter.name.toLowerCase());
      if (parameter.in === 'cookie') names.add('cookie');
    }
  }
  const wanted = [...names];
  return (headers) => {
    const picked: Record<string, string | string[]> = {};
    for (const name of wanted) {
      const value = headers[name];
      if (value !== undefined) picked[name] = value;
    }
    return picked;
  };
}

function copyParsed(request: ParsedRequest): ParsedRequest {
  return {
    ...request,
    params: { ...request.params },
    query: Object.keys(request.query).length === 0 ? {} : structuredClone(request.query),
    headers: { ...request.headers },
    cookies: { ...request.cookies },
  };
}
