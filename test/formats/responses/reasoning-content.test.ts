import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeReasoningContent, encodeReasoningContent } from '../../../src/formats/responses/reasoning-content.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import type { ReasoningDetail } from '../../../src/core/chat-types.js';

const detail: fc.Arbitrary<ReasoningDetail> = fc.oneof(
  fc.record({ type: fc.constant('reasoning.text' as const), text: fc.string(), signature: fc.option(fc.string(), { nil: undefined }), format: fc.constantFrom('anthropic-claude-v1', 'google-gemini-v1'), index: fc.nat() }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constant('reasoning.encrypted' as const), data: fc.string(), id: fc.option(fc.string(), { nil: undefined }), format: fc.constant('google-gemini-v1') }, { requiredKeys: ['type', 'data'] }),
  fc.record({ type: fc.constant('reasoning.summary' as const), summary: fc.string() }),
);

describe('reasoning details in encrypted_content', () => {
  it('round-trips any list of details unchanged', () => {
    fc.assert(fc.property(fc.array(detail, { maxLength: 4 }), (details) => {
      expect(decodeReasoningContent(encodeReasoningContent(details))).toEqual(details);
    }));
  });

  it('keeps content it did not issue (OpenAI encrypted reasoning) as one opaque detail', () => {
    expect(decodeReasoningContent('gAAAAABo-opaque')).toEqual([{ type: 'reasoning.encrypted', data: 'gAAAAABo-opaque', format: 'openai-responses-v1' }]);
  });

  it('answers 400 for modified content with the gateway prefix', () => {
    for (const bad of ['mg1.not-json', `mg1.${Buffer.from('{"type":"x"}').toString('base64url')}`, `mg1.${Buffer.from('[{"type":"other"}]').toString('base64url')}`]) {
      expect(() => decodeReasoningContent(bad)).toThrow(GatewayError);
    }
  });
});
