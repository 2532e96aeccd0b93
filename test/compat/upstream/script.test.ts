// The recorded upstream's script on each protocol's request shapes (research-clients §3-§9): which tool it calls
// with which arguments, and what it answers once the conversation carries the tool's result.
import { describe, expect, it } from 'vitest';
import { readTurn } from './read-turn.js';
import { answerFor, PLAIN_ANSWER } from './script.js';

const prompt = 'COMPAT-READ /tmp/w/notes.txt : read it';

describe('the recorded upstream script', () => {
  it('answers a prompt without a marker with the plain answer', () => {
    const turn = readTurn(
      'chat',
      { model: 'm', messages: [{ role: 'user', content: 'Say hello' }], tools: [] },
      '/v1/chat/completions',
    );
    expect(answerFor(turn)).toEqual({ kind: 'text', text: PLAIN_ANSWER });
  });

  it("calls Claude Code's Read with the path, filling only the required arguments", () => {
    const body = {
      model: 'claude',
      messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }],
      tools: [
        {
          name: 'Bash',
          input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
        },
        {
          name: 'Read',
          input_schema: {
            type: 'object',
            properties: { file_path: { type: 'string' }, limit: { type: 'integer' } },
            required: ['file_path'],
          },
        },
      ],
    };
    expect(answerFor(readTurn('messages', body, '/v1/messages'))).toEqual({
      kind: 'tool',
      name: 'Read',
      arguments: { file_path: '/tmp/w/notes.txt' },
    });
  });

  it("fills nested schemas (an array of file objects) and Gemini's upper-case types", () => {
    const body = {
      contents: [{ role: 'user', parts: [{ text: prompt }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: 'read_files',
              parametersJsonSchema: {
                type: 'OBJECT',
                properties: {
                  files: {
                    type: 'ARRAY',
                    items: { type: 'OBJECT', properties: { path: { type: 'STRING' } }, required: ['path'] },
                  },
                },
                required: ['files'],
              },
            },
          ],
        },
      ],
    };
    expect(
      answerFor(readTurn('gemini', body, '/v1beta/models/google/gemini-3.5-flash:streamGenerateContent?alt=sse')),
    ).toEqual({ kind: 'tool', name: 'read_files', arguments: { files: [{ path: '/tmp/w/notes.txt' }] } });
  });

  it("runs `cat` through Codex's exec_command, and uses its freeform apply_patch for a patch marker", () => {
    const tools = [
      {
        type: 'function',
        name: 'exec_command',
        parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
      },
      { type: 'custom', name: 'apply_patch', format: { type: 'grammar' } },
    ];
    const read = {
      model: 'gpt-5.5',
      input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }],
      tools,
    };
    expect(answerFor(readTurn('responses', read, '/v1/responses'))).toEqual({
      kind: 'tool',
      name: 'exec_command',
      arguments: { cmd: 'cat /tmp/w/notes.txt' },
    });
    const patch = {
      ...read,
      input: [
        {
          type: 'message',
          role: 'user',
          content: [{ type: 'input_text', text: 'COMPAT-PATCH hello.txt compat-token-1 (cell)' }],
        },
      ],
    };
    expect(answerFor(readTurn('responses', patch, '/v1/responses'))).toEqual({
      kind: 'custom-tool',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Add File: hello.txt\n+compat-token-1\n*** End Patch\n',
    });
    const translated = {
      ...patch,
      tools: [
        {
          type: 'function',
          name: 'apply_patch',
          parameters: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
        },
      ],
    };
    expect(answerFor(readTurn('responses', translated, '/v1/responses'))).toEqual({
      kind: 'tool',
      name: 'apply_patch',
      arguments: { input: '*** Begin Patch\n*** Add File: hello.txt\n+compat-token-1\n*** End Patch\n' },
    });
  });

  it('names the token a tool result holds, and only a tool result (not the prompt)', () => {
    const messages = [
      { role: 'user', content: `${prompt} compat-token-inprompt` },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: [{ type: 'text', text: 'compat-token-abc123\n' }] },
    ];
    expect(answerFor(readTurn('chat', { model: 'm', messages, tools: [] }, '/v1/chat/completions'))).toEqual({
      kind: 'text',
      text: 'COMPAT-RESULT compat-token-abc123',
    });
    const noResult = readTurn(
      'chat',
      { model: 'm', messages: messages.slice(0, 1), tools: [] },
      '/v1/chat/completions',
    );
    expect(answerFor(noResult)).toEqual({ kind: 'text', text: PLAIN_ANSWER });
  });
});
