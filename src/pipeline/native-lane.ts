// The lane of one attempt, and what a native reading tells the meter. An attempt takes the native lane when the
// endpoint speaks the door's protocol (ProviderConfig.protocols) and the protocol's back door takes the request as it
// is; otherwise it takes the translated lane (door → internal request → adapter). Decided per attempt: routing may fail
// over between endpoints of different protocols. The back doors are handed in (GenerationParts.natives, composed from
// the provider bundles): the pipeline names no vendor.
import type { WireProtocol } from '../core/wire-protocol.js';
import type { NativeProtocol, NativeProtocols, NativeReading } from '../providers/native/native-protocol.js';
import { upstreamProtocols } from '../providers/registry.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationMeter } from './generation-meter.js';

/** The native protocol an attempt at `target` takes for a request of a `door` protocol, or undefined: translated. */
export function nativeLaneOf(
  door: WireProtocol,
  target: Target,
  body: Readonly<Record<string, unknown>>,
  natives: NativeProtocols,
): NativeProtocol | undefined {
  const native = natives[door];
  if (native === undefined || !upstreamProtocols(target.provider).includes(door)) return undefined;
  return native.accepts === undefined || native.accepts(body, target.provider) ? native : undefined;
}

/** What a native reading tells the meter (the stream's events or a whole JSON answer). */
export function observeReading(meter: GenerationMeter, reading: NativeReading): void {
  if (reading.upstreamId !== undefined) meter.observe({ type: 'upstream-id', id: reading.upstreamId });
  if (reading.usage !== undefined) meter.observe({ type: 'usage', usage: reading.usage });
  if (reading.webSearches !== undefined) meter.observeWebSearches(reading.webSearches);
  if (reading.toolUses !== undefined) meter.observeToolUses(reading.toolUses);
  if (reading.served !== undefined) meter.observeServed(reading.served);
  if (reading.finish !== undefined) {
    meter.observe({
      type: 'finish',
      finishReason: reading.finish,
      ...(reading.stopSequence !== undefined ? { stopSequence: reading.stopSequence } : {}),
    });
  }
  meter.generated(reading.generatedChars);
}
