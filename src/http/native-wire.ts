// The client's own request, for the native lane: the body's bytes as they came (the body reader kept them), the body
// as parsed and validated, the door's gateway-only fields, and the client's protocol headers the upstream may read.
import type { Context } from 'koa';
import type { NativeWire } from '../providers/native/native-protocol.js';
import type { BodyState } from './read-json-body.js';

const EMPTY = Buffer.alloc(0);

/** Takes the raw body out of the request state: from here only the generation holds it, and drops it once sent. */
export function nativeWireOf(
  ctx: Context,
  /** The body as the router parsed and validated it (the handler's requestBody). */
  body: object,
  gatewayFields: readonly string[],
  clientHeaders: Readonly<Record<string, string>> = {},
): NativeWire {
  const state = ctx.state as BodyState;
  const raw = state.rawBody ?? EMPTY;
  state.rawBody = undefined;
  return { raw, body: body as Record<string, unknown>, gatewayFields, clientHeaders };
}
