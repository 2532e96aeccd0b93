// Once no further attempt needs the prompt: the client's bytes and parsed body, and the internal request when an
// attempt translated it. Nothing after the upstream call reads the messages, while the parsed request stays
// referenced (Koa state, openapi-backend's context, the run) until the response ends: a long prompt would stay
// alive, and be copied from young to old generation by the GC, for the whole generation.
import type { GenerationRequest } from '../core/generation-request.js';
import type { NativeWire } from '../providers/native/native-protocol.js';

/** Drops the client's prompt, bytes and parsed body. The door's wire body is the same object as the native wire's. */
export function releasePrompt(wire: NativeWire, translated: GenerationRequest | undefined): void {
  wire.raw = Buffer.alloc(0);
  const body = wire.body as Record<string, unknown>;
  for (const field of ['messages', 'input', 'system', 'tools']) if (field in body) body[field] = [];
  if (translated) {
    translated.messages = [];
    translated.system = [];
  }
}
