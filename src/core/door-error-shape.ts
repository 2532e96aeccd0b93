// How a front door answers errors on its own routes, so its clients' SDKs raise their typed errors: each door
// declares it (formats/<door>/door.ts), the HTTP layer's error envelope renders with it.
import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayError } from './gateway-error.js';

/** A front door's error body for the routes under `pathPrefix` (authentication and validation errors included). */
export interface DoorErrorShape {
  pathPrefix: string;
  /**
   * Also required, when present: a route shared by two doors (GET /models) answers in this door's shape only for
   * the requests that speak its protocol. Never applies without headers (an HTTP parser refusal).
   */
  when?: (path: string, headers: IncomingHttpHeaders) => boolean;
  render: (error: GatewayError, requestId: string | undefined) => unknown;
}
