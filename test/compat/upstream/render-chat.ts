// OpenAI Chat Completions answers (OpenAI, DeepSeek and the pass/ upstream speak it): a streamed answer as
// `chat.completion.chunk` frames ending with a usage chunk and [DONE], or one `chat.completion` object.
import type { Answer } from './script.js';

const USAGE = { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 };

export function renderChat(answer: Answer, model: string, stream: boolean): { type: string; chunks: string[] } {
  const id = `chatcmpl-compat-${Date.now()}`;
  const base = { id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const call =
    answer.kind === 'tool'
      ? {
          index: 0,
          id: 'call_compat_1',
          type: 'function',
          function: { name: answer.name, arguments: JSON.stringify(answer.arguments) },
        }
      : undefined;
  const text = answer.kind === 'text' ? answer.text : '';
  const finish = call ? 'tool_calls' : 'stop';
  if (!stream) {
    const message = call
      ? { role: 'assistant', content: null, tool_calls: [{ id: call.id, type: call.type, function: call.function }] }
      : { role: 'assistant', content: text };
    return {
      type: 'application/json',
      chunks: [
        JSON.stringify({
          ...base,
          object: 'chat.completion',
          choices: [{ index: 0, message, finish_reason: finish }],
          usage: USAGE,
        }),
      ],
    };
  }
  const frame = (delta: unknown, finishReason: string | null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const frames: unknown[] = [frame({ role: 'assistant', content: '' }, null)];
  if (call) {
    frames.push(frame({ tool_calls: [{ ...call, function: { name: call.function.name, arguments: '' } }] }, null));
    frames.push(frame({ tool_calls: [{ index: 0, function: { arguments: call.function.arguments } }] }, null));
  } else {
    frames.push(frame({ content: text }, null));
  }
  frames.push(frame({}, finish), { ...base, choices: [], usage: USAGE });
  return {
    type: 'text/event-stream',
    chunks: [...frames.map((f) => `data: ${JSON.stringify(f)}\n\n`), 'data: [DONE]\n\n'],
  };
}
