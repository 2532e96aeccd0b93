// OpenAI's Responses WebSocket mode on GET /api/v1/responses with `Upgrade: websocket`: the handshake is authenticated
// with the same credential rules as POST /responses (a bad key is a 401 answer, in the gateway's envelope, and no
// switch of protocols; X-Modelgate-Organization chooses the organization), then the socket serves response.create
// frames (responses-socket.ts). A graceful stop lets each socket's turn in progress finish, then closes it (1001).
import type { Context, Middleware } from 'koa';
import { WebSocketServer } from 'ws';
import { principalOf } from './authenticate.js';
import { GatewayError } from '../core/gateway-error.js';
import { API_ROOT } from './openapi-router.js';
import { GOING_AWAY, ResponsesSocket, type ResponsesSocketParts } from './responses-socket.js';
import { pendingUpgradeOf } from './upgrade-requests.js';

const RESPONSES = `${API_ROOT}/responses`;

/** Authenticates a request as the router does for an operation (http/authenticate.ts). */
export type Authenticate = (ctx: Context, sources: readonly [], operationId: string) => Promise<void>;

export class ResponsesSockets {
  private readonly server: WebSocketServer;
  private readonly open = new Set<ResponsesSocket>();

  constructor(
    /** The largest frame taken, bytes: a response.create is a POST /responses body (MODELGATE_BODY_LIMIT_BYTES). */
    maxFrameBytes: number,
  ) {
    // Compression is not offered: it costs CPU per frame for every socket, and clients fall back to plain frames.
    this.server = new WebSocketServer({ noServer: true, maxPayload: maxFrameBytes, perMessageDeflate: false });
  }

  get size(): number {
    return this.open.size;
  }

  middleware(parts: ResponsesSocketParts, authenticate: Authenticate): Middleware {
    return async (ctx, next) => {
      const pending = pendingUpgradeOf(ctx.req);
      if (ctx.path !== RESPONSES || pending === undefined) return next();
      if (ctx.method !== 'GET' || !/\bwebsocket\b/i.test(ctx.get('upgrade')))
        throw new GatewayError(400, 'Open WebSocket mode with GET /responses and "Upgrade: websocket"');
      await authenticate(ctx, [], 'createResponse');
      const opening = {
        headers: ctx.headers,
        requestId: ctx.state.requestId as string | undefined,
        // The same rules again at each turn (cached credentials cost no database round trip).
        authenticate: async () => {
          await authenticate(ctx, [], 'createResponse');
          return principalOf(ctx);
        },
      };
      pending.take();
      ctx.respond = false;
      ctx.status = 101;
      this.server.handleUpgrade(ctx.req, pending.socket, pending.head, (ws) => {
        const socket = new ResponsesSocket(ws, parts, opening);
        this.open.add(socket);
        // The access log's line is written when a response ends, which an upgrade has not: the socket has its own.
        const opened = performance.now();
        // The key's id (never its secret) says whose socket it is, as a generation record does.
        const { kind, credentialId } = principalOf(ctx);
        const keyId = kind === 'api_key' ? credentialId : undefined;
        parts.logger.info({ request_id: opening.requestId, path: RESPONSES, key_id: keyId }, 'websocket opened');
        ws.once('close', (code) => {
          this.open.delete(socket);
          const ms = Math.round(performance.now() - opened);
          parts.logger.info({ request_id: opening.requestId, code, ms, turns: socket.turns }, 'websocket closed');
        });
      });
    };
  }

  /** Drops every socket at once (the grace period is over): a turn in progress stops as on a client disconnect. */
  terminate(): void {
    for (const socket of this.open) socket.terminate();
  }

  /** Closes every socket once its turn in progress (if any) has ended; new handshakes are no longer expected. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.open].map(async (socket) => {
        await socket.current;
        socket.close(GOING_AWAY, 'server shutting down');
      }),
    );
    this.server.close();
  }
}
