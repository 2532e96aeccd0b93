// The WebSocket side of one generation (Responses WebSocket mode), beside the HTTP one (generation-exchange.ts): who
// asks (the principal the handshake's credential resolves to, checked again at each turn; the handshake's tracking and
// trace headers), a watch on the socket, and the pipeline's response port written as text frames. Every turn on a
// socket streams: there is no JSON body, and the headers of an HTTP answer have nowhere to go.
import type { IncomingHttpHeaders } from 'node:http';
import type { WebSocket } from 'ws';
import type { Principal } from '../auth/principal.js';
import { DisconnectSignal } from '../core/disconnect-signal.js';
import { clientTraceHeaders } from '../observability/client-trace-context.js';
import type { ClientConnection } from '../pipeline/generation-run-input.js';
import type { GenerationClient, GenerationResponse } from '../pipeline/serve-generation.js';
import { trackingHeadersOf } from './tracking-headers.js';
import type { WebSocketSender } from './websocket-sender.js';
import { writeSocketStream } from './websocket-stream.js';

export function websocketClient(ws: WebSocket, principal: Principal, headers: IncomingHttpHeaders): GenerationClient {
  return {
    principal,
    tracking: trackingHeadersOf(headers),
    clientTrace: clientTraceHeaders(headers),
    watchConnection: () => watchSocket(ws),
  };
}

/** Fires when the socket closes before the turn settled: the upstream call stops as on an HTTP disconnect. */
function watchSocket(ws: WebSocket): ClientConnection {
  const signal = new DisconnectSignal();
  const onClose = () => signal.abort();
  if (ws.readyState !== ws.OPEN) signal.abort();
  else ws.once('close', onClose);
  return { signal, dispose: () => ws.off('close', onClose) };
}

export function websocketResponse(sender: WebSocketSender): GenerationResponse {
  return {
    headers() {},
    rate() {},
    json(body) {
      void sender.send(JSON.stringify(body));
    },
    jsonBytes(body) {
      void sender.send(body.toString('utf8'));
    },
    // No keep-alive: the socket's own pings keep it open (responses-socket.ts).
    stream(source) {
      return writeSocketStream(sender, source);
    },
  };
}
