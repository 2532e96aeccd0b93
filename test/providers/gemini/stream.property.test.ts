// Property: any sequence of well-formed Gemini stream chunks, framed as the API frames them and cut into
// arbitrary byte pieces, yields well-formed StreamEvents: at most one finish, the vendor's text and thoughts
// concatenated exactly, each call's arguments equal to the vendor's full JSON, usage whenever the vendor sent
// it, and the same reply the non-streamed translation makes of the same parts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createGeminiStreamTranslator,
  normalizeGeminiUsage,
  parseGeminiCompletion,
} from '../../../src/providers/gemini/index.js';
import { completionView } from '../../helpers/stream-replay.js';
import { collect, replay } from './helpers.js';

type Part = Record<string, unknown>;

const signature = fc.option(
  fc.uint8Array({ minLength: 4, maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
  { nil: undefined },
);
const withSignature = (part: Part, sig: string | undefined): Part => (sig ? { ...part, thoughtSignature: sig } : part);

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.tuple(fc.string({ unit: 'binary', maxLength: 20 }), signature).map(([text, sig]) => withSignature({ text }, sig)),
  fc
    .tuple(fc.string({ unit: 'binary', maxLength: 20 }), signature)
    .map(([text, sig]) => withSignature({ text, thought: true }, sig)),
  fc
    .tuple(
      fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,15}$/),
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      signature,
    )
    .map(([name, args, sig]) => withSignature({ functionCall: { name, args } }, sig)),
);

const usage = fc.option(
  fc.record(
    {
      promptTokenCount: fc.nat(5000),
      candidatesTokenCount: fc.nat(5000),
      thoughtsTokenCount: fc.nat(5000),
      cachedContentTokenCount: fc.nat(100),
      totalTokenCount: fc.nat(20000),
    },
    { requiredKeys: ['promptTokenCount'] },
  ),
  { nil: undefined },
);

const stream = fc.record({
  chunks: fc.array(fc.record({ parts: fc.array(part, { maxLength: 3 }), usage }), { minLength: 1, maxLength: 6 }),
  finishReason: fc.constantFrom(
    'STOP',
    'STOP',
    'MAX_TOKENS',
    'SAFETY',
    'RECITATION',
    'OTHER',
    'MALFORMED_FUNCTION_CALL',
  ),
  trailingUsage: usage,
  lineBreak: fc.constantFrom('\r\n', '\n'),
  cuts: fc.array(fc.nat(), { maxLength: 12 }),
});

describe('stream translator (property)', () => {
  it('well-formed vendor streams give well-formed, lossless StreamEvents', () => {
    fc.assert(
      fc.property(stream, ({ chunks, finishReason, trailingUsage, lineBreak, cuts }) => {
        const responseId = 'resp-prop-1';
        const payloads: Part[] = chunks.map((chunk, i) => ({
          candidates: [
            {
              content: { role: 'model', parts: chunk.parts },
              index: 0,
              ...(i === chunks.length - 1 ? { finishReason } : {}),
            },
          ],
          ...(chunk.usage ? { usageMetadata: chunk.usage } : {}),
          modelVersion: 'gemini-3.5-flash',
          responseId,
        }));
        if (trailingUsage) payloads.push({ usageMetadata: trailingUsage, responseId });
        const bytes = new TextEncoder().encode(
          payloads.map((p) => `data: ${JSON.stringify(p)}${lineBreak}${lineBreak}`).join(''),
        );

        const events = replay(bytes, createGeminiStreamTranslator(), cuts);
        const got = collect(events);
        const parts = chunks.flatMap((c) => c.parts);
        const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall as { name: string; args: unknown });

        expect(got.ids).toEqual([responseId]);
        expect(got.content).toBe(
          parts
            .filter((p) => typeof p.text === 'string' && !p.thought)
            .map((p) => p.text)
            .join(''),
        );
        expect(got.reasoning).toBe(
          parts
            .filter((p) => p.thought)
            .map((p) => p.text)
            .join(''),
        );
        expect(got.toolCalls).toHaveLength(calls.length);
        got.toolCalls.forEach((call, i) => {
          expect(call.name).toBe(calls[i].name);
          // As the wire carries them: JSON has no -0, so the vendor's args are what their JSON text reads back as.
          expect(JSON.parse(call.arguments)).toEqual(JSON.parse(JSON.stringify(calls[i].args)));
          expect(call.id).toMatch(/^call_[0-9a-f]{24}$/);
        });
        expect(new Set(got.toolCalls.map((c) => c.id)).size).toBe(calls.length);
        expect(got.reasoningDetails).toHaveLength(parts.filter((p) => p.thoughtSignature).length);

        // At most one finish; an error finish is one error instead.
        expect(got.finishes.length + got.errors.length).toBe(1);
        if (finishReason === 'MALFORMED_FUNCTION_CALL') expect(got.errors[0].code).toBe('server_error');
        else
          expect(got.finishes[0]).toBe(
            (finishReason === 'STOP' || finishReason === 'OTHER') && calls.length > 0
              ? 'tool_calls'
              : {
                  STOP: 'stop',
                  MAX_TOKENS: 'length',
                  SAFETY: 'content_filter',
                  RECITATION: 'content_filter',
                  OTHER: 'stop',
                }[finishReason],
          );

        // Usage: present exactly when the vendor sent some, the last report wins (after an error the stream is over).
        const read = finishReason === 'MALFORMED_FUNCTION_CALL' ? payloads.slice(0, chunks.length) : payloads;
        const reports = read.map((p) => p.usageMetadata).filter((u) => u !== undefined);
        expect(got.usages).toEqual(reports.length > 0 ? [normalizeGeminiUsage(reports[reports.length - 1])] : []);

        // The same parts as one JSON response make the same reply.
        const whole = completionView(
          parseGeminiCompletion({
            candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
            responseId,
          }),
        );
        expect(got.content).toBe(whole.content ?? '');
        expect(got.reasoning).toBe(whole.reasoning ?? '');
        expect(got.reasoningDetails).toEqual(whole.reasoningDetails ?? []);
        expect(got.toolCalls).toEqual(
          (whole.toolCalls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })),
        );
      }),
      { numRuns: 200 },
    );
  });
});
