// The client's protocol headers OpenAI reads, which the native lane forwards (never credentials).
import type { IncomingHttpHeaders } from 'node:http';

export function openAiClientHeaders(headers: Readonly<IncomingHttpHeaders>): Record<string, string> {
  const beta = headers['openai-beta'];
  return typeof beta === 'string' && beta !== '' ? { 'openai-beta': beta } : {};
}
