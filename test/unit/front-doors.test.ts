// Each front door is one descriptor (formats/<door>/door.ts): one per protocol the gateway serves, each with the facts
// reader, translation, renderers and error shapes of its own folder, and the app's error shapes are theirs.
import { describe, expect, it } from 'vitest';
import { DOOR_ERROR_SHAPES } from '../../src/app.js';
import { FRONT_DOORS } from '../../src/formats/front-doors.js';
import { messagesDoor } from '../../src/formats/messages/door.js';
import { responsesDoor } from '../../src/formats/responses/door.js';
import { chatDoor } from '../../src/formats/chat-completions/door.js';

describe('front door descriptors', () => {
  it('describes each protocol once', () => {
    expect(FRONT_DOORS.map((door) => door.protocol).sort()).toEqual(['chat', 'gemini', 'messages', 'responses']);
    expect(new Set(FRONT_DOORS.map((door) => door.apiFormat)).size).toBe(FRONT_DOORS.length);
  });

  it("gives the app the doors' own error shapes, Messages' before the model routes'", () => {
    expect(DOOR_ERROR_SHAPES.map((shape) => shape.pathPrefix)).toEqual([
      '/api/v1/messages',
      '/api/v1/models',
      '/api/v1/gemini',
    ]);
  });

  it('forwards only the protocol headers of its own vendor to the native lane', () => {
    const headers = { 'openai-beta': 'responses=v1', 'anthropic-beta': 'x', authorization: 'Bearer k' };
    expect(responsesDoor.clientHeaders(headers)).toEqual({ 'openai-beta': 'responses=v1' });
    expect(responsesDoor.clientHeaders({})).toEqual({});
    expect(messagesDoor.clientHeaders(headers)).toEqual({ 'anthropic-beta': 'x' });
    expect(chatDoor.clientHeaders(headers)).toEqual({});
  });

  it("reads facts with the door's model naming and renders with the request's echo", () => {
    const body = { model: 'claude-x', max_tokens: 5, messages: [{ role: 'user' as const, content: 'hi' }] };
    expect(messagesDoor.readFacts(body as never, 'anthropic/claude-x').model).toBe('anthropic/claude-x');
    const renderers = responsesDoor.renderers({ model: 'openai/m', input: 'hi' } as never);
    expect(typeof renderers.renderJson).toBe('function');
    expect(typeof renderers.createStreamRenderer).toBe('function');
  });
});
