// The typed client: openapi-fetch over the generated `paths`, so every path, parameter, body and response is
// checked by the compiler. Authentication and attribution headers are added by one middleware.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './openapi-types.js';
import { ModelgateError } from './errors.js';

export type ModelgateClient = Client<paths>;

export interface ModelgateClientOptions {
  /** The gateway's API root, version prefix included, e.g. `http://127.0.0.1:8080/api/v1`. */
  baseUrl: string;
  /**
   * An API key (`mg-v1-...`: calls models), a management key (`mgm-v1-...`: manages keys, calls no model) or an
   * account token, sent as `Authorization: Bearer <apiKey>`.
   */
  apiKey: string;
  /** Sent as `X-Title`: your application's name in usage logs and generation records. */
  appTitle?: string;
  /** Sent as `HTTP-Referer`: your application's URL. */
  appUrl?: string;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

export function createModelgateClient(options: ModelgateClientOptions): ModelgateClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: options.headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const auth: Middleware = {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${options.apiKey}`);
      if (options.appTitle) request.headers.set('X-Title', options.appTitle);
      if (options.appUrl) request.headers.set('HTTP-Referer', options.appUrl);
      return request;
    },
  };
  client.use(auth);
  return client;
}

/** openapi-fetch results carry `data` or `error`; this returns the data or throws a ModelgateError. */
export async function unwrap<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await pending;
  if (!response.ok) throw new ModelgateError(response.status, error, response.headers);
  return data as T;
}
