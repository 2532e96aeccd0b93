// The lanes comparison's requests (lane-comparison.ts): one small request and one coding-agent-sized request in each
// door's protocol. The agent-sized one is what a late Codex / OpenCode / Claude Code turn looks like
// (~400 KB, 240 messages, 25 tools): a long system prompt, 25 function tools with JSON-Schema parameters, then 119
// tool rounds (the assistant calls a tool, the tool answers with a file's contents: code with quotes, backslashes and
// newlines, so JSON escapes weigh as they do in real traffic) and a last user message. The same conversation is written
// in chat completions, Anthropic Messages and OpenAI Responses, so the rows differ only by protocol and lane.
export type LaneDoor = 'chat' | 'messages' | 'responses';
export type RequestSize = 'small' | 'agent';

export const AGENT_TOOL_COUNT = 25;
/** Tool rounds of the agent-sized conversation: with the first and last user messages, 240 chat messages. */
export const AGENT_TOOL_ROUNDS = 119;
/** Characters of each tool answer: sets the request near 400 KB (checked by test/bench/bench-lanes.test.ts). */
const TOOL_OUTPUT_CHARS = 2_600;
const MAX_TOKENS = 64;

const TOOL_NAMES = [
  'read_file',
  'write_file',
  'apply_patch',
  'shell',
  'grep',
  'glob',
  'list_dir',
  'web_fetch',
  'todo_write',
  'task',
  'edit_file',
  'multi_edit',
  'notebook_edit',
  'git_status',
  'git_diff',
  'git_log',
  'run_tests',
  'lint',
  'format',
  'search_symbols',
  'go_to_definition',
  'find_references',
  'rename_symbol',
  'open_url',
  'ask_user',
] as const;

interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

interface ToolRound {
  callId: string;
  name: string;
  arguments: string;
  output: string;
}

interface Conversation {
  system: string;
  firstUser: string;
  rounds: ToolRound[];
  lastUser: string;
  tools: Tool[];
}

const SYSTEM_RULE =
  "You are a coding agent working in the user's repository. Read files before you change them, keep changes small, " +
  'run the tests after each change, and explain what you did in one short paragraph. Never print secrets. ';

function tools(): Tool[] {
  return TOOL_NAMES.slice(0, AGENT_TOOL_COUNT).map((name, i) => ({
    name,
    description: `${name.replace(/_/g, ' ')}: ${'Use this tool when the task needs it; it returns plain text and never changes files outside the workspace. '.repeat(5)}(tool ${i + 1})`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the workspace root, e.g. "src/index.ts".' },
        pattern: { type: 'string', description: 'A regular expression or glob, depending on the tool.' },
        limit: { type: 'integer', minimum: 1, maximum: 2000, description: 'At most this many lines or results.' },
        recursive: { type: 'boolean', description: 'Descend into sub-directories.' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  }));
}

/** A source file's text as a tool returns it: deterministic, different in every round, with characters JSON escapes. */
function fileText(round: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < TOOL_OUTPUT_CHARS; i++) {
    lines.push(
      `${String(i + 1).padStart(4)}\t  const value${i} = config.get("key.${round}.${i}") ?? 'C:\\\\temp\\\\file${i}.txt'; // round ${round}`,
    );
  }
  return lines.join('\n').slice(0, TOOL_OUTPUT_CHARS);
}

function conversation(): Conversation {
  const list = tools();
  const rounds = Array.from({ length: AGENT_TOOL_ROUNDS }, (_, i): ToolRound => {
    const tool = list[i % list.length];
    return {
      callId: `call_${String(i).padStart(4, '0')}`,
      name: tool.name,
      arguments: JSON.stringify({ path: `src/module-${i}.ts`, limit: 200 }),
      output: fileText(i),
    };
  });
  return {
    system: SYSTEM_RULE.repeat(40),
    firstUser: 'The tests in src/ fail after the last refactor. Find out why and fix it.',
    rounds,
    lastUser: 'Good. Now summarise what you changed in one paragraph.',
    tools: list,
  };
}

let cached: Conversation | undefined;
const agentConversation = () => (cached ??= conversation());

function small(): Conversation {
  return {
    system: 'You are a concise assistant.',
    firstUser: 'Say hello in about twenty words.',
    rounds: [],
    lastUser: '',
    tools: [],
  };
}

function chat(c: Conversation, model: string): Record<string, unknown> {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: c.system },
    { role: 'user', content: c.firstUser },
  ];
  for (const r of c.rounds) {
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: r.callId, type: 'function', function: { name: r.name, arguments: r.arguments } }],
    });
    messages.push({ role: 'tool', tool_call_id: r.callId, content: r.output });
  }
  if (c.lastUser) messages.push({ role: 'user', content: c.lastUser });
  const body: Record<string, unknown> = { model, messages, max_tokens: MAX_TOKENS, stream: false };
  if (c.tools.length > 0) body.tools = c.tools.map((t) => ({ type: 'function', function: t }));
  return body;
}

function messages(c: Conversation, model: string): Record<string, unknown> {
  const turns: Record<string, unknown>[] = [];
  let user: Record<string, unknown>[] = [{ type: 'text', text: c.firstUser }];
  for (const r of c.rounds) {
    turns.push({ role: 'user', content: user });
    turns.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: r.callId, name: r.name, input: JSON.parse(r.arguments) as unknown }],
    });
    user = [{ type: 'tool_result', tool_use_id: r.callId, content: r.output }];
  }
  if (c.lastUser) user.push({ type: 'text', text: c.lastUser });
  turns.push({ role: 'user', content: user });
  const body: Record<string, unknown> = {
    model,
    system: c.system,
    messages: turns,
    max_tokens: MAX_TOKENS,
    stream: false,
  };
  if (c.tools.length > 0)
    body.tools = c.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
  return body;
}

function responses(c: Conversation, model: string): Record<string, unknown> {
  const text = (value: string) => ({ type: 'message', role: 'user', content: [{ type: 'input_text', text: value }] });
  const input: Record<string, unknown>[] = [text(c.firstUser)];
  for (const r of c.rounds) {
    input.push({ type: 'function_call', call_id: r.callId, name: r.name, arguments: r.arguments });
    input.push({ type: 'function_call_output', call_id: r.callId, output: r.output });
  }
  if (c.lastUser) input.push(text(c.lastUser));
  const body: Record<string, unknown> = {
    model,
    instructions: c.system,
    input,
    max_output_tokens: MAX_TOKENS,
    stream: false,
  };
  if (c.tools.length > 0)
    body.tools = c.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
  return body;
}

/** The request body of `door`, of `size`, naming `model` (the gateway's catalog id or the upstream's own name). */
export function laneBody(door: LaneDoor, size: RequestSize, model: string): string {
  const c = size === 'agent' ? agentConversation() : small();
  const write = { chat, messages, responses }[door];
  const body = write(c, model);
  // A coding agent on the Responses API resends its conversation with `store: false`, as Codex does: it holds the
  // state itself. The small request leaves `store` at its default (true), so its turn is stored.
  if (door === 'responses' && size === 'agent') body.store = false;
  return JSON.stringify(body);
}

/** The path of `door` under an OpenAI-style base (`/v1` upstream, `/api/v1` at the gateway). */
export function doorPath(door: LaneDoor): string {
  return { chat: '/chat/completions', messages: '/messages', responses: '/responses' }[door];
}

/** Headers a client of `door` sends beside its credential (Claude Code sends anthropic-version). */
export function doorHeaders(door: LaneDoor): Record<string, string> {
  return door === 'messages'
    ? { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' }
    : { 'content-type': 'application/json' };
}
