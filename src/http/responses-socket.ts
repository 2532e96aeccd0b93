// One open Responses WebSocket (OpenAI's WebSocket mode): each `response.create` text frame is a POST /responses body,
// validated against the same schema, its credential checked again (a key revoked or expired since the handshake ends
// the socket), and served by the one pipeline (serveGeneration) with the socket as its response port: admitted,
// limited, billed and recorded exactly as a POST. One turn at a time; a `generate: false` warm-up is answered without
// a model. A refusal is an `error` event and the socket stays open; pings find dead peers, and a socket with no turn
// for the idle timeout is closed.
import type { IncomingHttpHeaders } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { responsesDoor } from '../formats/responses/door.js';
import { warmUpEvents } from '../formats/responses/warm-up-response.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';
import { type DoorRequestParts, doorRequest } from './door-request.js';
import type { Logger } from '../logger.js';
import { newGenerationId } from '../pipeline/generation-meter.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import type { AnswerKeeping } from '../core/answer-keeping.js';
import type { ResponseMemory } from '../core/stored-turn.js';
import { socketMemory } from './socket-memory.js';
import { errorEvent } from './websocket-error-event.js';
import { websocketClient, websocketResponse } from './websocket-exchange.js';
import { WebSocketSender } from './websocket-sender.js';

/** What every socket shares: the pipeline, the schema, the clock of its heartbeats and its idle timeout. */
export interface ResponsesSocketParts {
  /** The JSON size of the turns one socket keeps, characters. */
  memoryChars: number;
  /** The pipeline's parts, and the stored responses a turn continues after the socket's own memory. */
  generation: GenerationParts & DoorRequestParts;
  /** Throws the 400 a POST /responses with this body would get. */
  validateBody(operationId: string, body: unknown): void;
  logger: Logger;
  pingMs: number;
  idleMs: number;
  /** Counts a turn until it settled, so a graceful stop waits for it. */
  beginTurn(): () => void;
}

/** What one socket was opened with: its handshake's headers and request id, and its credential's check. */
export interface SocketOpening {
  headers: IncomingHttpHeaders;
  requestId?: string;
  /** The handshake's credential resolved again, by the same rules (throws 401/403 once it no longer holds). */
  authenticate(): Promise<Principal>;
}

/** The log line of one turn. */
interface TurnLine {
  request_id?: string;
  turn: number;
  /** It named a `previous_response_id`. */
  continued?: boolean;
  /** Input items the client sent (the expansion adds the chain's). */
  input_items?: number;
  warm_up?: boolean;
  /** The status of the error event it was answered with. */
  error?: number;
}

/** Close codes (RFC 6455 §7.4.1): a credential no longer valid is a policy violation; a stop, going away. */
const POLICY_VIOLATION = 1008;
export const GOING_AWAY = 1001;

export class ResponsesSocket {
  private readonly sender: WebSocketSender;
  /** The socket's turns, `store: false` ones included: what `previous_response_id` finds first. */
  private readonly memory: ResponseMemory;
  private turn?: Promise<void>;
  private idleTimer?: NodeJS.Timeout;
  private readonly pingTimer: NodeJS.Timeout;
  private answeredPing = true;
  /** Turns served (warm-ups included), for the socket's log line. */
  turns = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly parts: ResponsesSocketParts,
    private readonly opening: SocketOpening,
  ) {
    this.sender = new WebSocketSender(ws);
    this.memory = socketMemory(parts.memoryChars);
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('pong', () => {
      this.answeredPing = true;
    });
    // A protocol error (a frame past the size limit, bad UTF-8) is answered by ws with its close; nothing to add.
    ws.on('error', (err) => parts.logger.debug({ request_id: opening.requestId, err }, 'websocket error'));
    ws.on('close', () => this.stopTimers());
    this.pingTimer = setInterval(() => this.heartbeat(), parts.pingMs);
    this.pingTimer.unref();
    this.armIdle();
  }

  /** The turn in progress, if any (a graceful stop waits for it before it closes the socket). */
  get current(): Promise<void> | undefined {
    return this.turn;
  }

  close(code: number, reason: string): void {
    this.stopTimers();
    if (this.ws.readyState === this.ws.OPEN) this.ws.close(code, reason);
  }

  terminate(): void {
    this.stopTimers();
    this.ws.terminate();
  }

  private receive(data: RawData, isBinary: boolean): void {
    if (this.turn) {
      this.sendError(
        new GatewayError(
          400,
          'A response is already in progress on this socket: send the next response.create after its response.completed',
          { reason: 'response_already_in_flight' },
          {},
          'response_already_in_flight',
        ),
      );
      return;
    }
    clearTimeout(this.idleTimer);
    this.turns++;
    const done = this.parts.beginTurn();
    const started = performance.now();
    const line: TurnLine = { request_id: this.opening.requestId, turn: this.turns };
    this.turn = this.serve(data, isBinary, line)
      .catch((err: unknown) => {
        line.error = err instanceof GatewayError ? err.status : 500;
        this.fail(err);
      })
      .finally(() => {
        this.turn = undefined;
        done();
        // The access log's line for a turn: what it continued and how much the client sent, never its content.
        this.parts.logger.info({ ...line, ms: Math.round(performance.now() - started) }, 'websocket turn');
        this.armIdle();
      });
  }

  private async serve(data: RawData, isBinary: boolean, line: TurnLine): Promise<void> {
    const { type, generate, ...body } = parseFrame(data, isBinary);
    line.continued = typeof body.previous_response_id === 'string';
    line.input_items = Array.isArray(body.input) ? body.input.length : 1;
    if (generate === false) line.warm_up = true;
    if (type !== 'response.create')
      throw new GatewayError(400, `Unknown event type ${JSON.stringify(type)}: send "response.create"`, {
        field: 'type',
      });
    // Over a socket every answer streams: a `stream` or `background` the client sends is the transport's, not ours.
    delete body.stream;
    delete body.background;
    this.parts.validateBody('createResponse', body);
    const principal = await this.opening.authenticate();
    const { headers } = this.opening;
    const { generation } = this.parts;
    const request = { ...body, stream: true } as unknown as ResponseRequest;
    const call = {
      body: request,
      operationId: 'createResponse',
      pathParam: () => undefined,
      query: () => undefined,
      headers,
    };
    const wire = {
      raw: Buffer.from(JSON.stringify(request)),
      body: request as unknown as Record<string, unknown>,
      gatewayFields: GATEWAY_ONLY_FIELDS,
      clientHeaders: responsesDoor.clientHeaders(headers),
    };
    // What the turn continues, from the socket's memory first (`store: false` turns live only there), then storage.
    const ready = await doorRequest(responsesDoor, generation, { call, wire, headers, principal, local: this.memory });
    if (generate === false) return this.warmUp(request, ready.request.keeping);
    await serveGeneration(
      generation,
      websocketClient(this.ws, principal, headers),
      ready.request,
      websocketResponse(this.sender),
    );
  }

  /** Answered at once, and kept like any turn: the next turn may continue it. */
  private async warmUp(request: ResponseRequest, keeping?: AnswerKeeping): Promise<void> {
    const identity = {
      id: newGenerationId(),
      model: request.model,
      provider: '',
      created: Math.floor(Date.now() / 1000),
    };
    const { events, response } = warmUpEvents(request, identity, keeping?.fields);
    keeping?.final(response);
    for (const event of events) await this.sender.send(event);
  }

  private fail(err: unknown): void {
    if (!(err instanceof GatewayError)) {
      this.parts.logger.error({ request_id: this.opening.requestId, err }, 'unhandled error on a responses websocket');
      this.sendError(new GatewayError(500, 'Internal server error'));
      return;
    }
    this.sendError(err);
    // The credential no longer holds (revoked, expired, disabled): nothing more may be asked on this socket.
    if (err.status === 401 || err.status === 403) this.close(POLICY_VIOLATION, 'credential no longer valid');
  }

  private sendError(error: GatewayError): void {
    void this.sender.send(errorEvent(error, this.opening.requestId));
  }

  private heartbeat(): void {
    if (!this.answeredPing) {
      this.ws.terminate();
      return;
    }
    this.answeredPing = false;
    this.ws.ping();
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.idleTimer = setTimeout(() => this.close(1000, 'idle timeout'), this.parts.idleMs);
    this.idleTimer.unref();
  }

  private stopTimers(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.idleTimer);
  }
}

/** A client event: one JSON object in a text frame. */
function parseFrame(data: RawData, isBinary: boolean): Record<string, unknown> {
  if (isBinary) throw new GatewayError(400, 'Binary frames are not accepted: send each event as JSON in a text frame');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Array.isArray(data) ? Buffer.concat(data).toString('utf8') : data.toString('utf8'));
  } catch {
    throw new GatewayError(400, 'The event is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new GatewayError(400, 'The event must be a JSON object with a "type"');
  return parsed as Record<string, unknown>;
}
