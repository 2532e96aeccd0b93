// Requests for the five doors the response cache serves, drawn from what routes or prices them: each spec is a
// choice per input (undefined: the input is not sent), and `build` makes the door's path, body and headers of it.
// Two equal specs make the same request; two different ones differ in at least one input the answer depends on.
import fc from 'fast-check';

export interface DoorRequest {
  path: string;
  body: Record<string, unknown>;
  headers: Record<string, string>;
}

export interface CachedDoor {
  name: string;
  /** Each input's choices; the first is the base request's. */
  inputs: Record<string, readonly unknown[]>;
  build(spec: Record<string, unknown>, prompt: string): DoorRequest;
}

type Spec = Record<string, unknown>;

/**
 * Two specs of a door: the second is the first with up to two inputs drawn again (none: the same request; a value
 * drawn again may be the same one), so that requests differing in a single input are common.
 */
export function specPair(door: CachedDoor): fc.Arbitrary<[Spec, Spec]> {
  const spec = fc.record(
    Object.fromEntries(Object.entries(door.inputs).map(([name, choices]) => [name, fc.constantFrom(...choices)])),
  );
  return fc
    .tuple(spec, spec, fc.subarray(Object.keys(door.inputs), { maxLength: 2 }))
    .map(([a, drawn, changed]) => [a, { ...a, ...Object.fromEntries(changed.map((name) => [name, drawn[name]])) }]);
}

/** Every request that differs from the base request in one input, with the base: each input's every choice is tried. */
export function singleChanges(door: CachedDoor): [Spec, Spec][] {
  const base = Object.fromEntries(Object.entries(door.inputs).map(([name, choices]) => [name, choices[0]]));
  return Object.entries(door.inputs).flatMap(([name, choices]) =>
    choices.slice(1).map((choice): [Spec, Spec] => [base, { ...base, [name]: choice }]),
  );
}

const option = (...values: unknown[]): unknown[] => [undefined, ...values];

/** The same JSON with every object's keys in reverse order. */
export function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reordered(v)]),
  );
}

/** The spec's fields that are body fields, without the absent ones. */
function fields(spec: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => spec[name] !== undefined).map((name) => [name, spec[name]]));
}

function headers(spec: Record<string, unknown>, names: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(names)
      .filter(([field]) => spec[field] !== undefined)
      .map(([field, header]) => [header, String(spec[field])]),
  );
}

const weather = {
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
};
const provider = option({ sort: 'price' }, { allow_fallbacks: false });
const autoCache = option('off');

const chat: CachedDoor = {
  name: 'chat completions',
  inputs: {
    model: ['openai/gpt-5.4-nano', 'deepseek/deepseek-flash'],
    models: option(['openai/gpt-5.4']),
    provider,
    reasoning: option({ effort: 'low' }, { effort: 'high' }),
    tools: option([{ type: 'function', function: weather }]),
    service_tier: option('flex'),
    max_tokens: option(64),
    stream: option(false, true),
    autoCache,
  },
  build: (spec, prompt) => ({
    path: '/chat/completions',
    body: {
      ...fields(spec, ['model', 'models', 'provider', 'reasoning', 'tools', 'service_tier', 'max_tokens', 'stream']),
      messages: [{ role: 'user', content: prompt }],
    },
    headers: headers(spec, { autoCache: 'x-modelgate-auto-cache' }),
  }),
};

const messages: CachedDoor = {
  name: 'Messages',
  inputs: {
    model: ['openai/gpt-5.4-nano', 'anthropic/claude-haiku-5-5'],
    max_tokens: [2000, 3000],
    provider,
    thinking: option({ type: 'enabled', budget_tokens: 1024 }),
    tools: option([{ name: weather.name, description: weather.description, input_schema: weather.parameters }]),
    service_tier: option('standard_only'),
    stream: option(true),
    beta: option('context-1m-2025-08-07'),
  },
  build: (spec, prompt) => ({
    path: '/messages',
    body: {
      ...fields(spec, ['model', 'max_tokens', 'provider', 'thinking', 'tools', 'service_tier', 'stream']),
      messages: [{ role: 'user', content: prompt }],
    },
    headers: headers(spec, { beta: 'anthropic-beta' }),
  }),
};

const responses: CachedDoor = {
  name: 'Responses',
  inputs: {
    model: ['openai/gpt-5.4-nano', 'deepseek/deepseek-flash'],
    provider,
    reasoning: option({ effort: 'low' }),
    tools: option([{ type: 'function', ...weather }]),
    service_tier: option('flex'),
    max_output_tokens: option(64),
    stream: option(true),
    beta: option('responses=experimental'),
    autoCache,
  },
  build: (spec, prompt) => ({
    path: '/responses',
    body: {
      ...fields(spec, ['model', 'provider', 'reasoning', 'tools', 'service_tier', 'max_output_tokens', 'stream']),
      input: prompt,
    },
    headers: headers(spec, { beta: 'openai-beta', autoCache: 'x-modelgate-auto-cache' }),
  }),
};

const embeddings: CachedDoor = {
  name: 'embeddings',
  inputs: {
    model: ['openai/text-embedding-3-small', 'openai/text-embedding-3-large'],
    dimensions: option(256),
    encoding_format: option('base64'),
  },
  build: (spec, prompt) => ({
    path: '/embeddings',
    body: { ...fields(spec, ['model', 'dimensions', 'encoding_format']), input: prompt },
    headers: {},
  }),
};

const FRAMINGS = {
  json: ':generateContent',
  sse: ':streamGenerateContent?alt=sse',
  array: ':streamGenerateContent',
} as const;

const gemini: CachedDoor = {
  name: 'Gemini generateContent',
  inputs: {
    model: [
      'gemini-2.5-flash',
      'models/gemini-3.1-pro-preview',
      'openai%2Fgpt-5.4-nano',
      'anthropic%2Fclaude-haiku-5-5',
    ],
    framing: ['json', 'sse', 'array'],
    provider,
    thinking: option({ thinkingBudget: 512 }),
    maxOutputTokens: option(100),
    tools: option([
      {
        functionDeclarations: [
          { name: weather.name, description: weather.description, parametersJsonSchema: weather.parameters },
        ],
      },
    ]),
  },
  build: (spec, prompt) => {
    const config = {
      ...(spec.thinking ? { thinkingConfig: spec.thinking } : {}),
      ...fields(spec, ['maxOutputTokens']),
    };
    return {
      path: `/gemini/v1beta/models/${spec.model as string}${FRAMINGS[spec.framing as keyof typeof FRAMINGS]}`,
      body: {
        ...fields(spec, ['provider', 'tools']),
        ...(Object.keys(config).length > 0 ? { generationConfig: config } : {}),
        contents: [{ role: 'user', parts: [{ text: prompt }] }],
      },
      headers: {},
    };
  },
};

export const DOORS: readonly CachedDoor[] = [chat, messages, responses, embeddings, gemini];
