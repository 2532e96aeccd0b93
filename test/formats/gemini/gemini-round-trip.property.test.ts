// Properties of the Gemini door on the translated lane with a Google model behind it:
// - a Gemini request parsed by the door and rendered by the Gemini adapter is the request the client sent, for every
//   feature both carry: text, inline and file images and PDFs, signed thoughts, signed text, function calls (signed or
//   not) and their responses (output, error, or any object), the system instruction, function declarations in
//   Gemini's Schema, the function-calling mode, and sampling (temperature, topP, topK, output cap, stop sequences,
//   seed, penalties). Equal up to what the Gemini API defines as the same: calls and responses matched by name (the
//   gateway's ids are its own);
// - a Gemini answer read by the Gemini adapter and rendered by the door is the answer Google sent, whole (JSON) and
//   streamed (SSE chunks, cut anywhere): the same parts with the same signatures, the same usage. Equal up to the ids
//   the gateway gives calls, adjacent unsigned texts joined in a whole answer, and a streamed signed thought arriving
//   as its text, then its signature.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGeminiRequest } from '../../../src/formats/gemini/parse-request.js';
import { buildGenerateContentResponse } from '../../../src/formats/gemini/build-response.js';
import { GeminiStreamRenderer } from '../../../src/formats/gemini/gemini-stream-renderer.js';
import type { GeminiGenerateContentRequest } from '../../../src/formats/gemini/wire-types.js';
import { buildBody, createGeminiStreamTranslator, parseGeminiCompletion } from '../../../src/providers/gemini/index.js';
import type { StreamEnd } from '../../../src/core/stream-renderer.js';
import { geminiContext, replay } from '../../providers/gemini/helpers.js';

type Json = Record<string, any>;

const optional = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });
const clean = <T extends Json>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
const text = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '');
/** Text a function returns: not itself JSON, which the adapter would read as a value. */
const outputText = text.filter((s) => {
  try {
    JSON.parse(s);
    return false;
  } catch {
    return true;
  }
});
const signature = fc.base64String({ minLength: 4, maxLength: 24 }).filter((s) => s !== '');
const name = fc.constantFrom('read_file', 'glob', 'grep_search');
const args = fc.dictionary(
  fc.stringMatching(/^[a-z_]{1,6}$/),
  fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()),
  { maxKeys: 3 },
);

const userPart = fc.oneof(
  text.map((t) => ({ text: t })),
  fc
    .record({
      mimeType: fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'application/pdf'),
      data: fc.base64String({ minLength: 4, maxLength: 16 }),
    })
    .map((inlineData) => ({ inlineData })),
  fc
    .stringMatching(/^[a-z]{1,8}$/)
    .map((file) => ({ fileData: { mimeType: 'image/png', fileUri: `https://example.com/${file}.png` } })),
  fc
    .stringMatching(/^[a-z]{1,8}$/)
    .map((file) => ({ fileData: { mimeType: 'application/pdf', fileUri: `https://example.com/${file}.pdf` } })),
);
const response = fc.oneof(
  outputText.map((output) => ({ output })),
  outputText.map((error) => ({ error })),
  fc.dictionary(
    fc.stringMatching(/^[a-z]{3,6}$/).filter((k) => k !== 'output' && k !== 'error'),
    fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean()),
    { minKeys: 1, maxKeys: 3 },
  ),
);

/** A model turn as Gemini writes one (signed thoughts, its text, its calls), and the user turn that answers the calls. */
const exchange = fc
  .record({
    thoughts: fc.array(
      fc.record({ text: fc.string({ maxLength: 10 }), thought: fc.constant(true), thoughtSignature: signature }),
      { maxLength: 2 },
    ),
    answer: optional(fc.record({ text, thoughtSignature: optional(signature) }).map(clean)),
    calls: fc.array(
      fc.record({ functionCall: fc.record({ name, args }), thoughtSignature: optional(signature) }).map(clean),
      { maxLength: 3 },
    ),
    after: fc.array(userPart, { maxLength: 2 }),
  })
  .chain((turn) =>
    fc.tuple(...turn.calls.map(() => response)).map((responses) => {
      const model = [...turn.thoughts, ...(turn.answer ? [turn.answer] : []), ...turn.calls];
      const user = [
        ...turn.calls.map((call, i) => ({
          functionResponse: { name: call.functionCall.name, response: responses[i] },
        })),
        ...turn.after,
      ];
      return [
        { role: 'model', parts: model.length > 0 ? model : [{ text: 'ok' }] },
        { role: 'user', parts: user.length > 0 ? user : [{ text: 'go on' }] },
      ];
    }),
  );

const declaration = fc
  .record({
    name,
    description: optional(text),
    parameters: fc.constant({
      type: 'OBJECT',
      properties: { path: { type: 'STRING' }, line: { type: 'INTEGER' } },
      required: ['path'],
    }),
  })
  .map(clean);

const request: fc.Arbitrary<Json> = fc
  .record({
    first: fc.array(userPart, { minLength: 1, maxLength: 3 }),
    exchanges: fc.array(exchange, { maxLength: 3 }),
    system: optional(text),
    declarations: fc.uniqueArray(declaration, { maxLength: 3, selector: (d) => d.name }),
    mode: fc.constantFrom('AUTO', 'NONE', 'ANY', 'ANY_ONE', undefined),
    config: fc
      .record({
        temperature: optional(fc.double({ min: 0, max: 2, noNaN: true })),
        topP: optional(fc.double({ min: 0, max: 1, noNaN: true })),
        topK: optional(fc.integer({ min: 1, max: 100 })),
        maxOutputTokens: optional(fc.integer({ min: 1, max: 65536 })),
        stopSequences: optional(fc.array(text, { minLength: 1, maxLength: 2 })),
        seed: optional(fc.integer({ min: 0, max: 1000 })),
        presencePenalty: optional(fc.double({ min: 0.1, max: 1, noNaN: true })),
        frequencyPenalty: optional(fc.double({ min: 0.1, max: 1, noNaN: true })),
      })
      .map(clean),
  })
  .map((r) => {
    const body: Json = { contents: [{ role: 'user', parts: r.first }, ...r.exchanges.flat()] };
    if (r.system !== undefined) body.systemInstruction = { parts: [{ text: r.system }] };
    if (r.declarations.length > 0) {
      body.tools = [{ functionDeclarations: r.declarations }];
      if (r.mode === 'ANY_ONE')
        body.toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [r.declarations[0].name] } };
      else if (r.mode !== undefined) body.toolConfig = { functionCallingConfig: { mode: r.mode } };
    }
    if (Object.keys(r.config).length > 0) body.generationConfig = r.config;
    return body;
  });

describe('property: Gemini door → Gemini adapter', () => {
  it("renders the client's request back, for everything both carry", () => {
    fc.assert(
      fc.property(request, (body) => {
        const ctx = geminiContext({ maxOutputTokens: 65536 });
        const sent = JSON.parse(
          JSON.stringify(
            buildBody(parseGeminiRequest(body as GeminiGenerateContentRequest, 'google/gemini-2.5-flash', false), ctx),
          ),
        );
        expect(sent).toEqual({ ...body, generationConfig: { maxOutputTokens: 65536, ...body.generationConfig } });
      }),
      { numRuns: 300 },
    );
  });
});

/** A Gemini answer's parts (signed and unsigned thoughts, a signed or plain text, calls) and its usage. */
const answer = fc
  .record({
    thoughts: fc.array(
      fc.record({ text, thought: fc.constant(true), thoughtSignature: optional(signature) }).map(clean),
      { maxLength: 2 },
    ),
    answer: optional(
      fc
        .record({ text: fc.oneof(text, fc.constant('')), thoughtSignature: optional(signature) })
        .map(clean)
        .filter((p) => p.text !== '' || p.thoughtSignature !== undefined),
    ),
    calls: fc.array(
      fc.record({ functionCall: fc.record({ name, args }), thoughtSignature: optional(signature) }).map(clean),
      { maxLength: 3 },
    ),
    usage: fc.record({
      prompt: fc.integer({ min: 1, max: 10_000 }),
      cached: fc.integer({ min: 0, max: 100 }),
      answer: fc.integer({ min: 0, max: 5000 }),
      thoughts: fc.integer({ min: 0, max: 5000 }),
    }),
  })
  .map((a) => ({
    parts: [...a.thoughts, ...(a.answer ? [a.answer] : []), ...a.calls] as Json[],
    usageMetadata: clean({
      promptTokenCount: a.usage.prompt + a.usage.cached,
      cachedContentTokenCount: a.usage.cached > 0 ? a.usage.cached : undefined,
      candidatesTokenCount: a.usage.answer,
      thoughtsTokenCount: a.usage.thoughts > 0 ? a.usage.thoughts : undefined,
      totalTokenCount: a.usage.prompt + a.usage.cached + a.usage.answer + a.usage.thoughts,
    }),
  }))
  .filter((a) => a.parts.length > 0);

const identity = { id: 'gen-test', model: 'google/gemini-2.5-flash', provider: 'google', created: 1 };
/** Parts as Google sent them: the gateway names every call (Google's calls carry no id). */
const withoutIds = (parts: Json[]) =>
  parts.map((part) =>
    part.functionCall
      ? { ...part, functionCall: { name: part.functionCall.name, args: part.functionCall.args } }
      : part,
  );

/** Adjacent unsigned text parts of one kind (answer or thought) are one text to Gemini: a whole answer joins them. */
function joinPlain(parts: Json[]): Json[] {
  const out: Json[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    const plain = (p: Json) => typeof p.text === 'string' && p.thoughtSignature === undefined;
    if (last && plain(last) && plain(part) && last.thought === part.thought) last.text += part.text;
    else out.push({ ...part });
  }
  return out;
}

/** A streamed signed thought comes as its text, then its signature on an empty thought part: joined here. */
function joinStreamed(parts: Json[]): Json[] {
  const out: Json[] = [];
  for (const part of parts) {
    const last = out[out.length - 1];
    if (
      last?.thought &&
      part.thought &&
      last.thoughtSignature === undefined &&
      part.text === '' &&
      part.thoughtSignature !== undefined
    )
      last.thoughtSignature = part.thoughtSignature;
    else out.push({ ...part });
  }
  return out;
}

describe('property: Gemini adapter → Gemini door', () => {
  it('a whole answer comes back as Google sent it', () => {
    fc.assert(
      fc.property(answer, (a) => {
        const body = {
          candidates: [{ content: { role: 'model', parts: a.parts }, finishReason: 'STOP', index: 0 }],
          usageMetadata: a.usageMetadata,
        };
        const result = parseGeminiCompletion(body);
        const rendered = buildGenerateContentResponse(
          result,
          { usage: result.usage!, costNanos: 0n, accessMode: 'credits' },
          identity,
        );
        expect(withoutIds(rendered.candidates[0].content.parts as Json[])).toEqual(joinPlain(a.parts));
        expect(rendered.candidates[0].finishReason).toBe('STOP');
        expect(rendered.usageMetadata).toEqual(a.usageMetadata);
      }),
      { numRuns: 300 },
    );
  });

  it('a streamed answer comes back as Google sent it, however its bytes were cut', () => {
    fc.assert(
      fc.property(answer, fc.array(fc.nat(), { maxLength: 4 }), (a, cuts) => {
        const chunks = a.parts.map((part, i) => {
          const last = i === a.parts.length - 1;
          return clean({
            candidates: [
              clean({ content: { role: 'model', parts: [part] }, index: 0, finishReason: last ? 'STOP' : undefined }),
            ],
            usageMetadata: last ? a.usageMetadata : undefined,
          });
        });
        const bytes = new TextEncoder().encode(
          chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join(''),
        );
        const events = replay(
          bytes,
          createGeminiStreamTranslator(),
          cuts.map((cut) => cut % (bytes.length + 1)),
        );
        const renderer = new GeminiStreamRenderer(identity);
        const frames = events.flatMap((event) => renderer.event(event));
        const finish = events.find((event) => event.type === 'finish');
        const usage = events.find((event) => event.type === 'usage');
        expect(finish).toBeDefined();
        const end: StreamEnd = {
          type: 'finish',
          finishReason: (finish as { finishReason: 'stop' }).finishReason,
          totals: { usage: (usage as { usage: any }).usage, costNanos: 0n, accessMode: 'credits' },
        };
        frames.push(...renderer.end(end));
        const sent = frames.map((frame) => JSON.parse(frame.data));
        expect(frames.every((frame) => frame.event === undefined && !frame.data.includes('\n'))).toBe(true);
        expect(joinStreamed(withoutIds(sent.flatMap((chunk) => chunk.candidates[0].content.parts)))).toEqual(a.parts);
        expect(sent.at(-1).candidates[0].finishReason).toBe('STOP');
        expect(sent.at(-1).usageMetadata).toEqual(a.usageMetadata);
      }),
      { numRuns: 300 },
    );
  });
});
