import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeReasoningContent, encodeReasoningContent } from '../../../src/formats/responses/reasoning-content.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import type { ReasoningState } from '../../../src/core/generation.js';

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const withoutUndefined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

/** Reasoning records as adapters make them: signed text, summaries, opaque data (a Gemini call's names the call). */
const record: fc.Arbitrary<ReasoningState> = fc
  .oneof(
    fc.record({
      text: fc.string(),
      signature: optional(fc.string()),
      format: optional(fc.constantFrom('anthropic-claude-v1', 'google-gemini-v1')),
      index: optional(fc.nat()),
    }),
    fc.record({
      text: fc.string(),
      summary: fc.constant(true as const),
      id: optional(fc.string({ minLength: 1 })),
      index: optional(fc.nat()),
    }),
    fc.record({
      data: fc.string(),
      callId: optional(fc.string({ minLength: 1 })),
      format: fc.constant('google-gemini-v1'),
      index: optional(fc.nat()),
    }),
    fc.record({
      data: fc.string(),
      id: optional(fc.string({ minLength: 1 })),
      format: fc.constant('openai-responses-v1'),
    }),
  )
  .map(withoutUndefined);

describe('reasoning records in encrypted_content', () => {
  it('round-trips any list of records unchanged (numbered by position where they had no index)', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 4 }), (records) => {
        expect(decodeReasoningContent(encodeReasoningContent(records))).toEqual(
          records.map((r, i) => ({ type: 'reasoning', ...r, index: r.index ?? i })),
        );
      }),
    );
  });

  it("keeps content it did not issue (OpenAI encrypted reasoning) as one opaque record, with the item's id", () => {
    expect(decodeReasoningContent('gAAAAABo-opaque')).toEqual([
      { type: 'reasoning', data: 'gAAAAABo-opaque', format: 'openai-responses-v1' },
    ]);
    expect(decodeReasoningContent('gAAAAABo-opaque', 'rs_1')).toEqual([
      { type: 'reasoning', data: 'gAAAAABo-opaque', format: 'openai-responses-v1', id: 'rs_1' },
    ]);
  });

  it('reads values issued before internal records: reasoning_details entries', () => {
    const issued = `mg1.${Buffer.from(JSON.stringify([{ type: 'reasoning.text', text: 'Think.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 }])).toString('base64url')}`;
    expect(decodeReasoningContent(issued)).toEqual([
      { type: 'reasoning', text: 'Think.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
    ]);
  });

  it('answers 400 for modified content with the gateway prefix', () => {
    for (const bad of [
      'mg1.not-json',
      `mg1.${Buffer.from('{"type":"x"}').toString('base64url')}`,
      `mg1.${Buffer.from('[{"type":"other"}]').toString('base64url')}`,
    ]) {
      expect(() => decodeReasoningContent(bad)).toThrow(GatewayError);
    }
  });
});
