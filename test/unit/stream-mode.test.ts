import { describe, expect, it } from 'vitest';
import { wantsStream } from '../../src/formats/chat-completions/stream-mode.js';

describe('stream negotiation', () => {
  it('lets an explicit stream win over everything', () => {
    expect(wantsStream(true, 'application/json', false)).toBe(true);
    expect(wantsStream(false, 'text/event-stream', true)).toBe(false);
  });
  it('answers JSON for an omitted stream when Accept asks for JSON only', () => {
    expect(wantsStream(undefined, 'application/json', true)).toBe(false);
    expect(wantsStream(undefined, 'application/json, text/event-stream', true)).toBe(true);
  });
  it('falls back to the configured default', () => {
    expect(wantsStream(undefined, undefined, true)).toBe(true);
    expect(wantsStream(undefined, '*/*', false)).toBe(false);
  });
});
