// A front door's request as the pipeline takes it, read through the door's descriptor: the facts for planning, the
// client's own request for the native lane, the lazy parse for the translated lane, the renderers and the session.
// Shared by the HTTP generation handler and the Responses WebSocket mode, which hands each response.create frame to
// the same pipeline.
import type { IncomingHttpHeaders } from 'node:http';
import { sessionBudgetOf } from '../billing/session-budget-header.js';
import type { FrontDoor } from '../formats/shared/front-door.js';
import type { NativeWire } from '../providers/native/native-protocol.js';
import type { FrontDoorRequest } from '../pipeline/serve-generation.js';

/** What a door's request is read from beside its body. */
export interface DoorRequestInput<Body> {
  door: FrontDoor<Body>;
  body: Body;
  /** The gateway model id the door read (`door.modelOf`). */
  model: string;
  stream: boolean;
  /** The client's request for the native lane (its bytes and parsed body). */
  wire: NativeWire;
  headers: IncomingHttpHeaders;
  /** The client asked for automatic prompt caching. */
  autoCache: boolean;
}

export function doorRequest<Body>({
  door,
  body,
  model,
  stream,
  wire,
  headers,
  autoCache,
}: DoorRequestInput<Body>): FrontDoorRequest {
  return {
    apiFormat: door.apiFormat,
    protocol: door.protocol,
    facts: door.readFacts(body, model),
    wire,
    translate: () => door.parse(body, { model, stream, autoCache }),
    stream,
    ...door.renderers(body),
    sessionKey: door.sessionKey(body, headers),
    sessionBudgetNanos: sessionBudgetOf(headers),
  };
}
