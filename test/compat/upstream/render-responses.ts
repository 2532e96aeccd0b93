// OpenAI Responses answers: response.created, then per output item output_item.added, its deltas and
// output_item.done, then response.completed holding the whole response and its usage (every event with its
// sequence_number, `event:` lines as OpenAI sends them); or the Response object. A reasoning item with
// encrypted_content comes first when the request included it, as OpenAI does for store:false callers.
import type { Answer } from './script.js';

export const ENCRYPTED_REASONING = 'gAAAAABcompat-encrypted-reasoning';

export function renderResponses(
  answer: Answer,
  model: string,
  stream: boolean,
  reasoning: boolean,
): { type: string; chunks: string[] } {
  const id = `resp_compat_${Date.now()}`;
  const items: Array<Record<string, any>> = [];
  if (reasoning)
    items.push({
      id: 'rs_compat_1',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Thinking briefly.' }],
      encrypted_content: ENCRYPTED_REASONING,
    });
  if (answer.kind === 'text') {
    items.push({
      id: 'msg_compat_1',
      type: 'message',
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: answer.text, annotations: [] }],
    });
  } else if (answer.kind === 'tool') {
    items.push({
      id: 'fc_compat_1',
      type: 'function_call',
      status: 'completed',
      call_id: 'call_compat_1',
      name: answer.name,
      arguments: JSON.stringify(answer.arguments),
    });
  } else {
    items.push({
      id: 'ctc_compat_1',
      type: 'custom_tool_call',
      status: 'completed',
      call_id: 'call_compat_1',
      name: answer.name,
      input: answer.input,
    });
  }
  const usage = {
    input_tokens: 120,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 12,
    output_tokens_details: { reasoning_tokens: reasoning ? 4 : 0 },
    total_tokens: 132,
  };
  const response = {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: 'completed',
    model,
    output: items,
    usage,
    error: null,
    incomplete_details: null,
  };
  if (!stream) return { type: 'application/json', chunks: [JSON.stringify(response)] };
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const chunks = [
    event('response.created', { response: { ...response, status: 'in_progress', output: [], usage: null } }),
  ];
  items.forEach((item, output_index) => {
    const opened =
      item.type === 'message'
        ? { ...item, status: 'in_progress', content: [] }
        : item.type === 'reasoning'
          ? { ...item, summary: [] }
          : { ...item, status: 'in_progress' };
    chunks.push(event('response.output_item.added', { output_index, item: opened }));
    if (item.type === 'message') {
      const part = item.content[0];
      chunks.push(
        event('response.content_part.added', {
          item_id: item.id,
          output_index,
          content_index: 0,
          part: { ...part, text: '' },
        }),
      );
      chunks.push(
        event('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta: part.text }),
      );
      chunks.push(
        event('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text: part.text }),
      );
      chunks.push(event('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part }));
    } else if (item.type === 'function_call') {
      chunks.push(
        event('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments }),
      );
      chunks.push(
        event('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments }),
      );
    } else if (item.type === 'custom_tool_call') {
      chunks.push(
        event('response.custom_tool_call_input.delta', { item_id: item.id, output_index, delta: item.input }),
      );
      chunks.push(event('response.custom_tool_call_input.done', { item_id: item.id, output_index, input: item.input }));
    }
    chunks.push(event('response.output_item.done', { output_index, item }));
  });
  chunks.push(event('response.completed', { response }));
  return { type: 'text/event-stream', chunks };
}
