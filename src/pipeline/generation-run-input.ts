// What one generation run is given by the pipeline: who asks, the door's request, the route's candidates, the
// admission that reserved its spend, and the client's connection.
import type { Principal } from '../auth/principal.js';
import type { Admission } from '../billing/admission.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { ClientTraceHeaders } from '../observability/client-trace-context.js';
import type { RequestTrace } from '../observability/gateway-tracer.js';
import type { CallSignal } from '../providers/http-client.js';
import type { CheckedRequest } from '../routing/check-request.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationDoor } from './generation-door.js';
import type { ApiFormat, TrackingHeaders } from './generation-record.js';

/** The client's side of the exchange: aborted when it went away before the response finished. */
export interface ClientConnection {
  signal: CallSignal & { readonly aborted: boolean };
  /** Stops listening for the disconnect (called once, at settlement). */
  dispose(): void;
}

export interface GenerationRunInput {
  principal: Principal;
  door: GenerationDoor;
  facts: RequestFacts;
  /** The first candidate; the serving one once an attempt succeeded. */
  target: Target;
  /** Every candidate endpoint in the order to try them (routing); [target] when omitted. */
  targets?: readonly Target[];
  admission: Admission;
  stream: boolean;
  checked: CheckedRequest;
  client: ClientConnection;
  tracking: TrackingHeaders;
  /** The front door the request came through, kept in its generation record. */
  apiFormat: ApiFormat;
  /** The client's W3C trace context, passed upstream when the gateway does not trace itself. */
  clientTrace?: ClientTraceHeaders;
  /** The request's span (tracing on): parent of the attempt spans, annotated from the record at settlement. */
  requestTrace?: RequestTrace;
}
