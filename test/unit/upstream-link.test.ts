// The upstream's cancellation when the client leaves: at once, or after a bounded drain for streams that may hide
// tokens; cut by the bound or by a graceful stop; never after the generation settled. And which adapters hide tokens.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DisconnectSignal } from '../../src/core/disconnect-signal.js';
import { UpstreamDrains } from '../../src/pipeline/upstream-drains.js';
import { UpstreamLink } from '../../src/pipeline/upstream-link.js';
import { createAnthropicAdapter } from '../../src/providers/anthropic/index.js';
import { createGeminiAdapter } from '../../src/providers/gemini/index.js';
import { createOpenAICompatibleAdapter } from '../../src/providers/openai-compatible/index.js';
import type { AdapterContext } from '../../src/providers/adapter.js';
import type { GenerationRequest, ReasoningRequest } from '../../src/core/generation-request.js';

function link(options: { boundMs?: number; hides?: boolean; drains?: UpstreamDrains; client?: DisconnectSignal } = {}) {
  const client = options.client ?? new DisconnectSignal();
  const drains = options.drains ?? new UpstreamDrains();
  const upstream = new UpstreamLink(client, {
    boundMs: options.boundMs ?? 60_000,
    mayHideTokens: () => options.hides ?? true,
    drains,
  });
  return { client, drains, upstream };
}

describe('UpstreamLink', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('aborts the upstream as soon as the client leaves when the stream hides nothing, or draining is off', () => {
    for (const options of [{ hides: false }, { boundMs: 0 }]) {
      const { client, upstream } = link(options);
      client.abort();
      expect(upstream.signal.aborted).toBe(true);
      expect(upstream.draining).toBe(false);
      expect(upstream.cutOff).toBe(false);
    }
  });

  it('drains a stream that may hide tokens until the bound, then cuts it', () => {
    const { client, drains, upstream } = link({ boundMs: 5_000 });
    client.abort();
    expect(upstream.signal.aborted).toBe(false);
    expect(upstream.draining).toBe(true);
    expect(drains.size).toBe(1);
    vi.advanceTimersByTime(4_999);
    expect(upstream.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(upstream).toMatchObject({ draining: false, cutOff: true });
    expect(upstream.signal.aborted).toBe(true);
    expect(drains.size).toBe(0);
  });

  it('is cut by a graceful stop, and a client leaving after the stop is cut at once', () => {
    const drains = new UpstreamDrains();
    const first = link({ drains });
    first.client.abort();
    drains.close();
    expect(first.upstream).toMatchObject({ cutOff: true });
    expect(first.upstream.signal.aborted).toBe(true);
    const second = link({ drains });
    second.client.abort();
    expect(second.upstream).toMatchObject({ draining: false, cutOff: true });
    expect(second.upstream.signal.aborted).toBe(true);
  });

  it('does nothing once the generation settled', () => {
    const { client, drains, upstream } = link();
    client.abort();
    upstream.finish();
    expect(drains.size).toBe(0);
    vi.advanceTimersByTime(120_000);
    expect(upstream.signal.aborted).toBe(false);
    expect(upstream.cutOff).toBe(false);
    const later = link();
    later.upstream.finish();
    later.client.abort();
    expect(later.upstream.signal.aborted).toBe(false);
    expect(later.client.listenerCount('abort')).toBe(0);
  });

  it('takes a client that was gone before the call', () => {
    const client = new DisconnectSignal();
    client.abort();
    expect(link({ client, hides: false }).upstream.signal.aborted).toBe(true);
  });
});

describe('which streams may hide tokens (adapter.hidesReasoning)', () => {
  const ctx = (supportsReasoning: boolean, upstreamModel = 'm'): AdapterContext => ({
    provider: { id: 'p', kind: 'openai-compatible', baseUrl: 'https://p.test' },
    model: { id: 'p/m', upstreamModel, supportsReasoning },
    stream: true,
  });
  const request = (reasoning?: ReasoningRequest): GenerationRequest => ({
    model: 'p/m',
    system: [],
    messages: [],
    tools: [],
    stream: true,
    ...(reasoning ? { reasoning } : {}),
  });

  it('OpenAI-compatible: every reasoning-capable model (OpenAI keeps its reasoning out of the stream)', () => {
    const adapter = createOpenAICompatibleAdapter();
    expect(adapter.hidesReasoning?.(request(), ctx(true))).toBe(true);
    expect(adapter.hidesReasoning?.(request(), ctx(false))).toBe(false);
  });

  it('Gemini: any model that thinks (thought summaries are not the billed thoughts); 2.5 Flash with thinking off does not', () => {
    const adapter = createGeminiAdapter();
    expect(adapter.hidesReasoning?.(request(), ctx(true, 'gemini-2.5-flash'))).toBe(true);
    expect(adapter.hidesReasoning?.(request({ exclude: true }), ctx(true, 'gemini-2.5-pro'))).toBe(true);
    expect(adapter.hidesReasoning?.(request({ enabled: false }), ctx(true, 'gemini-3.5-flash'))).toBe(true); // cannot be off
    expect(adapter.hidesReasoning?.(request({ enabled: false }), ctx(true, 'gemini-2.5-flash'))).toBe(false);
    expect(adapter.hidesReasoning?.(request(), ctx(false, 'gemini-2.5-flash'))).toBe(false);
  });

  it('Anthropic: never (thinking streams as deltas)', () => {
    expect(createAnthropicAdapter().hidesReasoning?.(request(), ctx(true, 'claude-haiku-5-5'))).toBe(false);
  });
});
