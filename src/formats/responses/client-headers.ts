// The client's protocol headers OpenAI reads, which the native lane forwards (never credentials). The WebSocket mode's
// own beta flag (`responses_websockets=…`, sent by Codex with its handshake) names the client's transport to the
// gateway, not a feature of the HTTP request the gateway makes upstream: it is left out.
import type { IncomingHttpHeaders } from 'node:http';

const TRANSPORT_FLAG = /^responses_websockets(=|$)/;

export function openAiClientHeaders(headers: Readonly<IncomingHttpHeaders>): Record<string, string> {
  const beta = headers['openai-beta'];
  if (typeof beta !== 'string' || beta === '') return {};
  const flags = beta
    .split(',')
    .map((flag) => flag.trim())
    .filter((flag) => flag !== '' && !TRANSPORT_FLAG.test(flag));
  return flags.length > 0 ? { 'openai-beta': flags.join(',') } : {};
}
