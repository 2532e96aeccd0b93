// Upstream error texts reach clients (JSON errors on every door, in-stream error events, the generation record) only
// through an adapter: its mapError for non-2xx answers, the UpstreamPayloadError of parseCompletion for an error inside
// a 2xx body, and the error events of its stream translator. Wrapping every adapter once (server.ts) is therefore the
// one place where each configured credential value is removed from them, whatever the vendor and the door.
import type { StreamEvent } from '../core/generation.js';
import type { ProviderAdapter, StreamTranslator, UpstreamErrorInfo } from './adapter.js';
import { UpstreamPayloadError } from './upstream-payload-error.js';

export const REDACTED = '[redacted]';

export type Redact = (text: string) => string;

/** Replaces every occurrence of each value with `[redacted]`; longer values first, so none is cut by a shorter one. */
export function credentialRedactor(values: readonly string[]): Redact {
  const secrets = [...new Set(values)].filter((value) => value !== '').sort((a, b) => b.length - a.length);
  if (secrets.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };
}

export function redactInfo(info: UpstreamErrorInfo, redact: Redact): UpstreamErrorInfo {
  const out = { ...info, message: redact(info.message) };
  if (info.upstreamCode !== undefined) out.upstreamCode = redact(info.upstreamCode);
  return out;
}

function redactEvents(events: StreamEvent[], redact: Redact): StreamEvent[] {
  // Nearly every batch has no error: it passes as it is, without a copy.
  if (!events.some((event) => event.type === 'error')) return events;
  return events.map((event) => (event.type === 'error' ? { ...event, message: redact(event.message) } : event));
}

function redactingTranslator(translator: StreamTranslator, redact: Redact): StreamTranslator {
  return {
    push: (event) => redactEvents(translator.push(event), redact),
    end: () => redactEvents(translator.end(), redact),
  };
}

/**
 * `adapter` whose error texts (messages and vendor codes) never carry a configured credential. The wrapper inherits
 * from the adapter, so every other member, optional ones included (routing tells an absent `acceptsFileParts` from one
 * that answers false), is the adapter's own.
 */
export function redactingAdapter(adapter: ProviderAdapter, redact: Redact): ProviderAdapter {
  const overrides: Pick<ProviderAdapter, 'parseCompletion' | 'createStreamTranslator' | 'mapError'> = {
    parseCompletion: (body, ctx) => {
      try {
        return adapter.parseCompletion(body, ctx);
      } catch (err) {
        if (err instanceof UpstreamPayloadError) throw new UpstreamPayloadError(redactInfo(err.info, redact));
        throw err;
      }
    },
    createStreamTranslator: (ctx) => redactingTranslator(adapter.createStreamTranslator(ctx), redact),
    mapError: (answer, ctx) => redactInfo(adapter.mapError(answer, ctx), redact),
  };
  return Object.assign(Object.create(adapter) as ProviderAdapter, overrides);
}

export function redactingAdapters<K extends string>(
  adapters: Partial<Record<K, ProviderAdapter>>,
  redact: Redact,
): Partial<Record<K, ProviderAdapter>> {
  const out: Partial<Record<K, ProviderAdapter>> = {};
  for (const [kind, adapter] of Object.entries(adapters) as [K, ProviderAdapter | undefined][]) {
    if (adapter) out[kind] = redactingAdapter(adapter, redact);
  }
  return out;
}
