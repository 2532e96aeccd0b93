// Requests that Node's HTTP parser refuses (a control character in a header, headers over the size limit, a
// malformed request line, headers that never finish arriving) never reach Koa. Left alone, Node answers them with a
// bare "400 Bad Request": no body, no Content-Type, no x-request-id. This answers them with the same envelope as
// every other error (the front door's own shape on its routes, e.g. Anthropic's on /messages, when the request line
// was read), or destroys the socket when no answer can be given any more.
import { STATUS_CODES, maxHeaderSize, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { GatewayError, errorBody } from '../core/gateway-error.js';
import { newRequestId } from './request-id.js';
import { doorFor, type DoorErrorShape } from './error-envelope.js';
import { lingeringClose } from './lingering-close.js';

/** What a refused request is told: the status, a machine-readable `metadata.reason` and the message. */
export interface ParserRefusal {
  status: number;
  reason: string;
  message: string;
}

// The error codes are llhttp's (`HPE_*`) and Node's own; anything not listed is a generic malformed request.
const REQUEST_LINE_CODES = new Set([
  'HPE_INVALID_METHOD',
  'HPE_INVALID_URL',
  'HPE_INVALID_VERSION',
  'HPE_INVALID_CONSTANT',
]);
const FRAMING_CODES = new Set([
  'HPE_INVALID_CONTENT_LENGTH',
  'HPE_UNEXPECTED_CONTENT_LENGTH',
  'HPE_INVALID_TRANSFER_ENCODING',
  'HPE_INVALID_CHUNK_SIZE',
]);

export function describeParserError(code: string | undefined, maxHeaderSize: number): ParserRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'headers_too_large',
        message: `The request line and headers together exceed ${maxHeaderSize} bytes`,
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        reason: 'chunk_extensions_too_large',
        message: 'The chunk extensions of the request body are too large',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'request_timeout', message: 'The request did not arrive in time' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return {
        status: 400,
        reason: 'invalid_header',
        message:
          'A request header holds a character HTTP does not allow (a control character in a value, or a separator in a name)',
      };
  }
  if (code !== undefined && REQUEST_LINE_CODES.has(code)) {
    return {
      status: 400,
      reason: 'malformed_request_line',
      message: 'Malformed request line: expected "<METHOD> <path> HTTP/1.1"',
    };
  }
  if (code !== undefined && FRAMING_CODES.has(code)) {
    return {
      status: 400,
      reason: 'malformed_body_framing',
      message: 'Invalid Content-Length, Transfer-Encoding or chunk framing',
    };
  }
  return { status: 400, reason: 'malformed_request', message: 'Malformed HTTP request' };
}

/** The whole answer, as bytes: the socket is written directly, there is no response object at this level. */
export function renderRefusal(refusal: ParserRefusal, requestId: string, door?: DoorErrorShape): string {
  const error = new GatewayError(refusal.status, refusal.message, { reason: refusal.reason });
  const envelope = door
    ? door.render(error, requestId)
    : errorBody(refusal.status, refusal.message, { request_id: requestId, reason: refusal.reason });
  const body = JSON.stringify(envelope);
  return [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * The path of the refused request, when known: from the request Node already made of it (a body that arrived too
 * slowly), else from the request line at the start of the bytes the parser refused.
 */
export function refusedPath(socket: Socket, rawPacket: unknown): string | undefined {
  const request = (socket as Socket & { _httpMessage?: { req?: IncomingMessage } })._httpMessage?.req;
  const target =
    request?.url ??
    (Buffer.isBuffer(rawPacket)
      ? /^[A-Z]+ (\S+) HTTP\//.exec(rawPacket.subarray(0, 2048).toString('latin1'))?.[1]
      : undefined);
  return target?.split('?')[0];
}

/** An answer may still go out: the socket is writable and no response on it has started (as Node's own rule). */
function answerable(socket: Socket): boolean {
  // `_httpMessage` is the response Node has bound to the socket, if any; Node's default handler checks the same.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  return socket.writable && !socket.writableEnded && !inFlight?.headersSent;
}

const answered = new WeakSet<Socket>();

/** Transport failures reported through the same event: the peer is gone, there is nobody to answer. */
const TRANSPORT_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ETIMEDOUT']);

/** Installs the `clientError` listener (which replaces Node's default answer); `doors` as for error-envelope.ts. */
export function answerClientErrors(server: Server, logger: Logger, doors: readonly DoorErrorShape[] = []): void {
  server.on('clientError', (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    // The parser reports again when more bytes of a refused request arrive: the first answer stands.
    if (answered.has(socket)) return;
    if (!answerable(socket) || (err.code !== undefined && TRANSPORT_CODES.has(err.code))) {
      // A peer that reset or went away (ECONNRESET, EPIPE) is not a refusal; nothing can be sent to it.
      logger.debug({ parser_code: err.code }, 'client connection error');
      socket.destroy();
      return;
    }
    answered.add(socket);
    // The server's own limit when it was given one (createServer({ maxHeaderSize })), else the process-wide one.
    const limit = (server as Server & { maxHeaderSize?: number }).maxHeaderSize ?? maxHeaderSize;
    const refusal = describeParserError(err.code, limit);
    const requestId = newRequestId();
    // Never the error object itself: it carries the raw bytes the parser choked on (`rawPacket`).
    logger.warn(
      { request_id: requestId, status: refusal.status, reason: refusal.reason, parser_code: err.code },
      'request refused by the HTTP parser',
    );
    const path = refusedPath(socket, err.rawPacket);
    // After answering, the socket half-closes and lingers, so that the client can read the answer.
    lingeringClose(socket, renderRefusal(refusal, requestId, path === undefined ? undefined : doorFor(doors, path)));
  });
}
