// What the recorded upstream needs to know about one request, whatever the vendor protocol it arrived in: the tools
// offered, the conversation's text (where the prompt's markers live), the tool results already in it, and whether
// the caller wants a stream or a JSON object. The tool result is only looked for where each protocol puts it, so a
// token can reach the answer only through a tool the client really ran.
export type Protocol = 'chat' | 'responses' | 'messages' | 'gemini';

export interface OfferedTool {
  name: string;
  /** `custom` is the Responses API's freeform tool (Codex's apply_patch): its input is raw text, not JSON. */
  kind: 'function' | 'custom';
  schema?: Record<string, unknown>;
}

export interface TurnView {
  protocol: Protocol;
  model: string;
  stream: boolean;
  tools: OfferedTool[];
  /** Every message of the conversation as JSON text: the markers of the prompt are searched here. */
  conversation: string;
  /** The tool results the conversation carries, as JSON text; undefined when there is none. */
  toolResults?: string;
  /** The caller asked for JSON output (a classifier or title side request). */
  wantsJson: boolean;
  /** The caller asked for thinking / reasoning it can replay (Anthropic thinking, encrypted reasoning). */
  wantsThinking: boolean;
}

type Json = Record<string, any>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? value : []);

export function readTurn(protocol: Protocol, body: Json, path: string): TurnView {
  switch (protocol) {
    case 'chat':
      return readChat(body);
    case 'responses':
      return readResponses(body);
    case 'messages':
      return readMessages(body);
    case 'gemini':
      return readGemini(body, path);
  }
}

function readChat(body: Json): TurnView {
  const messages = list(body.messages);
  const results = messages.filter((m) => m.role === 'tool');
  return {
    protocol: 'chat',
    model: String(body.model),
    stream: body.stream === true,
    tools: list(body.tools)
      .filter((t) => t.type === 'function')
      .map((t) => ({ name: t.function.name, kind: 'function', schema: t.function.parameters })),
    conversation: JSON.stringify(messages),
    toolResults: results.length ? JSON.stringify(results) : undefined,
    wantsJson: ['json_object', 'json_schema'].includes(body.response_format?.type),
    wantsThinking: false,
  };
}

/** Responses tools: top level, inside `namespace` tools, and inside Codex's `additional_tools` input items. */
function responsesTools(tools: Json[]): OfferedTool[] {
  return tools.flatMap((tool): OfferedTool[] => {
    if (tool.type === 'function') return [{ name: tool.name, kind: 'function', schema: tool.parameters }];
    if (tool.type === 'custom') return [{ name: tool.name, kind: 'custom' }];
    if (tool.type === 'namespace') return responsesTools(list(tool.tools));
    return [];
  });
}

function readResponses(body: Json): TurnView {
  const input: Json[] =
    typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : list(body.input);
  const extra = input.filter((item) => item.type === 'additional_tools').flatMap((item) => list(item.tools));
  const results = input.filter((item) => typeof item.type === 'string' && item.type.endsWith('_call_output'));
  return {
    protocol: 'responses',
    model: String(body.model),
    stream: body.stream === true,
    tools: responsesTools([...list(body.tools), ...extra]),
    conversation: JSON.stringify(input.filter((item) => item.type !== 'additional_tools')),
    toolResults: results.length ? JSON.stringify(results) : undefined,
    wantsJson: ['json_object', 'json_schema'].includes(body.text?.format?.type),
    wantsThinking: Array.isArray(body.include) && body.include.includes('reasoning.encrypted_content'),
  };
}

function readMessages(body: Json): TurnView {
  const messages = list(body.messages);
  const results = messages.flatMap((m) => list(m.content)).filter((block) => block.type === 'tool_result');
  return {
    protocol: 'messages',
    model: String(body.model),
    stream: body.stream === true,
    tools: list(body.tools)
      .filter((t) => t.input_schema)
      .map((t) => ({ name: t.name, kind: 'function', schema: t.input_schema })),
    conversation: JSON.stringify(messages),
    toolResults: results.length ? JSON.stringify(results) : undefined,
    wantsJson: body.output_config?.format?.type === 'json_schema',
    wantsThinking: ['enabled', 'adaptive'].includes(body.thinking?.type),
  };
}

function readGemini(body: Json, path: string): TurnView {
  const contents = list(body.contents);
  const results = contents.flatMap((c) => list(c.parts)).filter((part) => part.functionResponse);
  const declarations = list(body.tools).flatMap((t) => list(t.functionDeclarations ?? t.function_declarations));
  const config = body.generationConfig ?? {};
  return {
    protocol: 'gemini',
    model: decodeURIComponent(path.replace(/^.*\/models\//, '').replace(/:[A-Za-z]+(\?.*)?$/, '')),
    stream: path.includes(':streamGenerateContent'),
    tools: declarations.map((d) => ({
      name: d.name,
      kind: 'function',
      schema: d.parametersJsonSchema ?? d.parameters,
    })),
    conversation: JSON.stringify(contents),
    toolResults: results.length ? JSON.stringify(results) : undefined,
    wantsJson: config.responseMimeType === 'application/json',
    wantsThinking: config.thinkingConfig?.includeThoughts === true,
  };
}
