// The conformance kit's check of Messages event streams: passes Anthropic's sequence, fails on each fault.
import { describe, expect, it } from 'vitest';
import { loadDocument } from '../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../src/conformance/schema-validator.js';
import { messagesEventStreamProblem } from '../../src/conformance/messages-event-stream.js';

const doc = await loadDocument();
const validator = createSchemaValidator(doc);
const frame = (data: Record<string, unknown>, name = String(data.type)) =>
  `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
const start = frame({
  type: 'message_start',
  message: {
    id: 'gen-1',
    type: 'message',
    role: 'assistant',
    model: 'm',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: 0 },
  },
});
const blocks =
  frame({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }) +
  frame({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } }) +
  frame({ type: 'content_block_stop', index: 0 });
const end =
  frame({
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { input_tokens: 1, output_tokens: 1 },
  }) + frame({ type: 'message_stop' });

describe('messagesEventStreamProblem', () => {
  it('passes a whole stream, pings included, and one ended by an error event', () => {
    expect(
      messagesEventStreamProblem(validator, `${start}event: ping\ndata: {"type":"ping"}\n\n${blocks}${end}`),
    ).toBeUndefined();
    expect(
      messagesEventStreamProblem(
        validator,
        start + frame({ type: 'error', error: { type: 'api_error', message: 'x' } }),
      ),
    ).toBeUndefined();
  });

  it('fails a stream without message_start, without message_stop, with a mismatched name or an invalid event', () => {
    expect(messagesEventStreamProblem(validator, blocks + end)).toMatch(/not message_start/);
    expect(messagesEventStreamProblem(validator, start + blocks)).toMatch(/not message_stop/);
    expect(messagesEventStreamProblem(validator, start + frame({ type: 'message_stop' }, 'message_end'))).toMatch(
      /is named/,
    );
    expect(
      messagesEventStreamProblem(
        validator,
        start + frame({ type: 'content_block_delta', index: -1, delta: { type: 'text_delta', text: 'x' } }) + end,
      ),
    ).toMatch(/does not match/);
    expect(messagesEventStreamProblem(validator, `${start}event: message_stop\ndata: [DONE]\n\n`)).toMatch(/not JSON/);
  });
});
