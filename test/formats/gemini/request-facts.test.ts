// What planning and admission read of a Gemini request, walked from its wire body: inline and file media priced by
// their size (a 300 KB image is not 100,000 tokens of text), images and PDFs found for the capability check, the
// sampling and tool fields by their chat-format names, the output cap.
import { describe, expect, it } from 'vitest';
import { geminiRequestFacts } from '../../../src/formats/gemini/request-facts.js';
import { wireTokens } from '../../../src/formats/shared/wire-tokens.js';
import { geminiAttachment } from '../../../src/formats/gemini/attachment-tokens.js';
import { messagesAttachment } from '../../../src/formats/messages/attachment-tokens.js';
import type { GeminiGenerateContentRequest } from '../../../src/formats/gemini/wire-types.js';

const image = Buffer.alloc(300_000, 7).toString('base64');

describe('Gemini request facts', () => {
  it('prices inlineData by its size and finds images and PDFs, inline or by URI', () => {
    const imageOnly = wireTokens(
      [{ parts: [{ inlineData: { mimeType: 'image/png', data: image } }] }],
      geminiAttachment,
    );
    expect(imageOnly.images).toBe(true);
    // Priced as the same image in a Messages block, not as its 400,000 characters of base64 text.
    const asBlock = wireTokens(
      [{ content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: image } }] }],
      messagesAttachment,
    );
    expect(imageOnly.tokens).toBe(asBlock.tokens);
    expect(imageOnly.tokens).toBeLessThan(image.length / 8);
    expect(
      wireTokens([{ parts: [{ fileData: { fileUri: 'https://example.com/a.pdf' } }] }], geminiAttachment),
    ).toMatchObject({
      files: true,
      images: false,
    });
    expect(
      wireTokens([{ parts: [{ fileData: { mimeType: 'image/jpeg', fileUri: 'gs://bucket/x' } }] }], geminiAttachment),
    ).toMatchObject({ images: true });
  });

  it('reads the fields planning and admission need', () => {
    const body: GeminiGenerateContentRequest = {
      contents: [
        {
          role: 'user',
          parts: [{ text: 'Read it' }, { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } }],
        },
        { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'x' } } }] },
      ],
      tools: [{ functionDeclarations: [{ name: 'read_file' }] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      generationConfig: {
        temperature: 1,
        topP: 0.95,
        maxOutputTokens: 2048,
        thinkingConfig: { includeThoughts: false, thinkingLevel: 'HIGH' },
      },
    };
    expect(geminiRequestFacts(body, 'google/gemini-3.5-flash')).toMatchObject({
      model: 'google/gemini-3.5-flash',
      hasUserMessage: true,
      hasImages: false,
      hasFiles: true,
      hasTools: true,
      sentParameters: ['temperature', 'top_p', 'max_tokens', 'tools', 'tool_choice', 'reasoning'],
      maxOutputTokens: 2048,
      excludeReasoning: true,
    });
    const onlyResults = {
      contents: [{ role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }],
    } as GeminiGenerateContentRequest;
    expect(geminiRequestFacts(onlyResults, 'google/x').hasUserMessage).toBe(false);
  });
});
