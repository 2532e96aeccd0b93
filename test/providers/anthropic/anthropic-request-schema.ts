// JSON Schema of the POST /v1/messages body, written from Anthropic's Messages API reference for the
// fields this adapter sends (additionalProperties: false everywhere, so an unknown field is a failure).
// Rules a JSON Schema cannot express (turn alternation, tool_result ↔ tool_use pairing, thinking
// constraints) are checked by `anthropicRuleViolations` below.

const ID = '^[a-zA-Z0-9_-]+$';
const textBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'text'],
  properties: { type: { const: 'text' }, text: { type: 'string', pattern: '\\S' } },
};
const imageBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'source'],
  properties: {
    type: { const: 'image' },
    source: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'media_type', 'data'],
          properties: {
            type: { const: 'base64' },
            media_type: { enum: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
            data: { type: 'string' },
          },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'url'],
          properties: { type: { const: 'url' }, url: { type: 'string', pattern: '^https?://' } },
        },
      ],
    },
  },
};
const toolResultBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'tool_use_id'],
  properties: {
    type: { const: 'tool_result' },
    tool_use_id: { type: 'string', pattern: ID },
    content: { oneOf: [{ type: 'string' }, { type: 'array', items: textBlock }] },
    is_error: { type: 'boolean' },
  },
};
const thinkingBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'thinking', 'signature'],
  properties: {
    type: { const: 'thinking' },
    thinking: { type: 'string' },
    signature: { type: 'string', minLength: 1 },
  },
};
const redactedThinkingBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'data'],
  properties: { type: { const: 'redacted_thinking' }, data: { type: 'string', minLength: 1 } },
};
const toolUseBlock = {
  type: 'object',
  additionalProperties: false,
  required: ['type', 'id', 'name', 'input'],
  properties: {
    type: { const: 'tool_use' },
    id: { type: 'string', pattern: ID },
    name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
    input: { type: 'object' },
  },
};
const content = (blocks: object[]) => ({
  oneOf: [
    { type: 'string', pattern: '\\S' },
    { type: 'array', minItems: 1, items: { oneOf: blocks } },
  ],
});
const withParallel = { disable_parallel_tool_use: { type: 'boolean' } };

export const ANTHROPIC_REQUEST_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['model', 'max_tokens', 'messages'],
  properties: {
    model: { type: 'string', minLength: 1 },
    max_tokens: { type: 'integer', minimum: 1 },
    messages: {
      type: 'array',
      minItems: 1,
      items: {
        oneOf: [
          {
            type: 'object',
            additionalProperties: false,
            required: ['role', 'content'],
            properties: { role: { const: 'user' }, content: content([textBlock, imageBlock, toolResultBlock]) },
          },
          {
            type: 'object',
            additionalProperties: false,
            required: ['role', 'content'],
            properties: {
              role: { const: 'assistant' },
              content: content([textBlock, thinkingBlock, redactedThinkingBlock, toolUseBlock]),
            },
          },
        ],
      },
    },
    system: { oneOf: [{ type: 'string' }, { type: 'array', items: textBlock }] },
    stop_sequences: { type: 'array', items: { type: 'string', pattern: '\\S' } },
    temperature: { type: 'number', minimum: 0, maximum: 1 },
    top_p: { type: 'number', minimum: 0, maximum: 1 },
    top_k: { type: 'integer', minimum: 0 },
    tools: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'input_schema'],
        properties: {
          name: { type: 'string', pattern: '^[a-zA-Z0-9_-]{1,64}$' },
          description: { type: 'string' },
          input_schema: { type: 'object', required: ['type'], properties: { type: { const: 'object' } } },
        },
      },
    },
    tool_choice: {
      oneOf: [
        {
          type: 'object',
          additionalProperties: false,
          required: ['type'],
          properties: { type: { enum: ['auto', 'any'] }, ...withParallel },
        },
        {
          type: 'object',
          additionalProperties: false,
          required: ['type', 'name'],
          properties: { type: { const: 'tool' }, name: { type: 'string' }, ...withParallel },
        },
        { type: 'object', additionalProperties: false, required: ['type'], properties: { type: { const: 'none' } } },
      ],
    },
    thinking: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'budget_tokens'],
      properties: { type: { const: 'enabled' }, budget_tokens: { type: 'integer', minimum: 1024 } },
    },
    metadata: { type: 'object', additionalProperties: false, properties: { user_id: { type: 'string' } } },
    stream: { type: 'boolean' },
  },
} as const;

type Block = { type: string; id?: string; tool_use_id?: string; text?: string };
type Message = { role: string; content: string | Block[] };

const blocksOf = (message: Message): Block[] =>
  typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;

/** The documented rules outside the schema; an empty list means the body is acceptable. */
export function anthropicRuleViolations(body: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const messages = body.messages as Message[];
  messages.forEach((message, i) => {
    if (i > 0 && messages[i - 1].role === message.role) problems.push(`messages[${i}] repeats role ${message.role}`);
    const blocks = blocksOf(message);
    const results = blocks.filter((b) => b.type === 'tool_result');
    if (results.length === 0) return;
    if (blocks.slice(0, results.length).some((b) => b.type !== 'tool_result'))
      problems.push(`messages[${i}] has tool_result after other blocks`);
    const previous = i > 0 ? blocksOf(messages[i - 1]) : [];
    const ids = new Set(previous.filter((b) => b.type === 'tool_use').map((b) => b.id));
    for (const r of results)
      if (!ids.has(r.tool_use_id)) problems.push(`messages[${i}] answers unknown tool_use ${r.tool_use_id}`);
  });
  const last = messages.at(-1);
  if (last?.role === 'assistant') {
    const tail = blocksOf(last).at(-1);
    if (tail?.type === 'text' && /\s$/.test(tail.text ?? '')) problems.push('final assistant text ends in whitespace');
  }
  const thinking = body.thinking as { budget_tokens: number } | undefined;
  if (thinking) {
    if (thinking.budget_tokens >= (body.max_tokens as number)) problems.push('budget_tokens must be below max_tokens');
    if (body.temperature !== undefined || body.top_k !== undefined) problems.push('thinking forbids temperature/top_k');
    if (body.top_p !== undefined && (body.top_p as number) < 0.95) problems.push('thinking needs top_p >= 0.95');
    const choice = (body.tool_choice as { type: string } | undefined)?.type;
    if (choice === 'any' || choice === 'tool') problems.push('thinking forbids forced tool use');
    const lastAssistant = [...messages].reverse().find((m) => m.role === 'assistant');
    const blocks = lastAssistant ? blocksOf(lastAssistant) : [];
    if (blocks.some((b) => b.type === 'tool_use') && !['thinking', 'redacted_thinking'].includes(blocks[0].type)) {
      problems.push('thinking needs the last tool-calling assistant turn to start with a thinking block');
    }
  }
  if (body.temperature !== undefined && body.top_p !== undefined) problems.push('temperature and top_p together');
  if (body.tool_choice !== undefined && body.tools === undefined) problems.push('tool_choice without tools');
  return problems;
}
