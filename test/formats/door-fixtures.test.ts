// Recorded door requests (test/fixtures/doors/<door>/<case>.request.json) → the GenerationRequest each front door
// parses them into (<case>.expected.json, reviewed by hand): every field a door maps, in the internal model's terms.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '../../src/core/generation-request.js';
import { parseChatRequest } from '../../src/formats/chat-completions/parse-request.js';
import { parseMessagesRequest } from '../../src/formats/messages/parse-request.js';
import { parseResponseRequest } from '../../src/formats/responses/parse-request.js';
import { parseGeminiRequest } from '../../src/formats/gemini/parse-request.js';

const DOORS: Record<string, (body: any, expected: GenerationRequest) => GenerationRequest> = {
  chat: (body) => parseChatRequest(body, body.stream ?? true),
  // The Messages door resolves Claude names against the catalog first (model-name.ts): the fixture names the result.
  messages: (body, expected) => parseMessagesRequest(body, expected.model, body.stream === true),
  responses: (body) => parseResponseRequest(body, body.stream === true),
  // The Gemini door takes its model from the path (model-name.ts): the fixture names the result.
  gemini: (body, expected) => parseGeminiRequest(body, expected.model, false),
};

const folder = (door: string) => new URL(`../fixtures/doors/${door}/`, import.meta.url);
const read = (door: string, file: string) => JSON.parse(readFileSync(new URL(file, folder(door)), 'utf8'));

describe.each(Object.keys(DOORS))('%s door: recorded requests → GenerationRequest', (door) => {
  const cases = readdirSync(folder(door))
    .filter((file) => file.endsWith('.request.json'))
    .map((file) => file.replace('.request.json', ''));

  it('has recorded cases', () => {
    expect(cases.length).toBeGreaterThan(0);
  });

  it.each(cases)('%s', (name) => {
    const expected = read(door, `${name}.expected.json`) as GenerationRequest;
    const parsed = DOORS[door](read(door, `${name}.request.json`), expected);
    expect(parsed).toEqual(expected);
    // Plain data: what a recorded fixture holds is all there is.
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
  });
});
