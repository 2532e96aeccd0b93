// The conformance mock upstream's OpenAI Responses API (POST /responses), which the gateway's Responses door reaches
// natively for openai/ models: a whole Response object, or its event stream (created, the output item's events,
// completed with usage), calling the first function tool when the request offers one, as OpenAI answers them.
import type http from 'node:http';
import { isRecord, type JsonRecord } from '../providers/payload-readers.js';

const REPLY = 'Hello from the conformance mock upstream.';
const OUTPUT_TOKENS = 8;

/** The first function tool the request offers, unless it forbids tool calls. */
function pickFunction(body: JsonRecord): string | undefined {
  if (!Array.isArray(body.tools) || body.tool_choice === 'none') return undefined;
  for (const tool of body.tools) {
    if (isRecord(tool) && tool.type === 'function' && typeof tool.name === 'string') return tool.name;
  }
  return undefined;
}

function responseObject(
  body: JsonRecord,
  id: string,
  status: 'in_progress' | 'completed',
  output: unknown[],
  usage?: unknown,
) {
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    model: String(body.model ?? 'mock'),
    output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: null,
    store: false,
    temperature: body.temperature ?? 1,
    text: body.text ?? { format: { type: 'text' } },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: usage ?? null,
    metadata: body.metadata ?? {},
  };
}

export function answerResponses(body: JsonRecord, raw: string, n: number, res: http.ServerResponse): void {
  const id = `resp_mock${n}`;
  const tool = pickFunction(body);
  const item = tool
    ? {
        id: `fc_mock${n}`,
        type: 'function_call',
        status: 'completed',
        call_id: `call_mock${n}`,
        name: tool,
        arguments: '{}',
      }
    : {
        id: `msg_mock${n}`,
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: REPLY, annotations: [] }],
      };
  const input = Math.max(1, Math.ceil(raw.length / 4));
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: OUTPUT_TOKENS,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + OUTPUT_TOKENS,
  };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(responseObject(body, id, 'completed', [item], usage)));
    return;
  }
  let sequence = 0;
  const event = (type: string, data: object) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const events = [
    event('response.created', { response: responseObject(body, id, 'in_progress', []) }),
    event('response.output_item.added', {
      output_index: 0,
      item: { ...item, status: 'in_progress', ...(tool ? { arguments: '' } : { content: [] }) },
    }),
    tool
      ? event('response.function_call_arguments.delta', { item_id: item.id, output_index: 0, delta: '{}' })
      : event('response.output_text.delta', {
          item_id: item.id,
          output_index: 0,
          content_index: 0,
          delta: REPLY,
          logprobs: [],
        }),
    event('response.output_item.done', { output_index: 0, item }),
    event('response.completed', { response: responseObject(body, id, 'completed', [item], usage) }),
  ];
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.end(events.join(''));
}
