// The requests every system receives. The bodies are the same OpenAI-format chat request; only the model name
// differs (the gateway's catalog id vs the upstream's own name), plus the headers each system needs.
import type { ProbeVariant, Scenario } from './plan.js';
import type { StreamFormat } from './stream-formats.js';
import { probeMarker } from '../mock-replies.js';

export const UPSTREAM_MODEL = 'gpt-test-2026';
export const GATEWAY_MODEL = 'openai/gpt-test';
/** The bench catalog's model with three endpoints, all on the mock (bench/fixtures/bench-catalog.json). */
export const ROUTED_MODEL = 'alpha/routed';
/** The routed request's provider order: the most expensive endpoint first, so the order (not price) decides. */
export const ROUTED_PROVIDER_ORDER = ['gamma', 'beta', 'alpha'] as const;
/** Providers of the bench catalog besides openai, each pointed at the mock by gatewayEnv. */
export const MOCKED_PROVIDERS = [...ROUTED_PROVIDER_ORDER, 'anthropic'] as const;
export const PROMPT_64K_BYTES = 64 * 1024;

const FILLER = 'The quick brown fox jumps over the lazy dog while the benchmark measures the gateway. ';

/** Exactly `bytes` ASCII characters of prose: a long-context prompt without JSON escapes. */
export function longPrompt(bytes: number): string {
  return FILLER.repeat(Math.ceil(bytes / FILLER.length)).slice(0, bytes);
}

export interface BodyOptions {
  /** Ask the mock for stamped chunks paced this many milliseconds apart (probe requests). */
  probePaceMs?: number;
}

export function chatBody(scenario: Scenario, model: string, options: BodyOptions = {}): string {
  const question = scenario === 'prompt64k' ? longPrompt(PROMPT_64K_BYTES) : 'Say hello in about twenty words.';
  const marker = probeSuffix(options);
  const body: Record<string, unknown> = {
    model,
    messages: [
      { role: 'system', content: 'You are a concise assistant.' },
      { role: 'user', content: `${question}${marker}` },
    ],
    max_tokens: 64,
    stream: scenario === 'stream',
  };
  if (scenario === 'stream') body.stream_options = { include_usage: true };
  return JSON.stringify(body);
}

function probeSuffix(options: BodyOptions): string {
  return options.probePaceMs === undefined ? '' : ` ${probeMarker(options.probePaceMs)}`;
}

/**
 * `chatBody` for the model with several endpoints, routed as OpenRouter clients ask: `provider.order` across its
 * three endpoints and a fallback in `models[]`. Every part of the routing step runs (candidates of both models,
 * health and price order, then the requested order); the first candidate answers.
 */
export function routedChatBody(scenario: Scenario, options: BodyOptions = {}): string {
  const body = JSON.parse(chatBody(scenario, ROUTED_MODEL, options)) as Record<string, unknown>;
  return JSON.stringify({ ...body, models: [GATEWAY_MODEL], provider: { order: [...ROUTED_PROVIDER_ORDER] } });
}

/**
 * The streaming request of `chatBody('stream', …)` as an OpenAI Responses API request (POST /responses). The gateway
 * passes a string `input` on as the user message's text, so the probe marker reaches the mock as in chat requests.
 */
export function responsesStreamBody(model: string, options: BodyOptions = {}): string {
  return JSON.stringify({
    model,
    instructions: 'You are a concise assistant.',
    input: `Say hello in about twenty words.${probeSuffix(options)}`,
    max_output_tokens: 64,
    stream: true,
  });
}

/** The same request as an Anthropic Messages API request (POST /messages); string content reaches the mock as is. */
export function messagesStreamBody(model: string, options: BodyOptions = {}): string {
  return JSON.stringify({
    model,
    system: 'You are a concise assistant.',
    messages: [{ role: 'user', content: `Say hello in about twenty words.${probeSuffix(options)}` }],
    max_tokens: 64,
    stream: true,
  });
}

/** The gateway's /responses endpoint, next to its chat-completions one. */
export function responsesUrl(chatCompletionsUrl: string): string {
  return chatCompletionsUrl.replace(/\/chat\/completions$/, '/responses');
}

/** The gateway's /messages endpoint, next to its chat-completions one. */
export function messagesUrl(chatCompletionsUrl: string): string {
  return chatCompletionsUrl.replace(/\/chat\/completions$/, '/messages');
}

/** Where and what a Modelgate probe variant requests (`url`: the gateway's chat-completions endpoint). */
export function variantRequest(
  variant: ProbeVariant,
  url: string,
  options: BodyOptions = {},
): { url: string; body: string; format: StreamFormat } {
  switch (variant) {
    case 'routed':
      return { url, body: routedChatBody('json', {}), format: 'chat' };
    case 'responses':
      return { url: responsesUrl(url), body: responsesStreamBody(GATEWAY_MODEL, options), format: 'responses' };
    case 'messages':
      return { url: messagesUrl(url), body: messagesStreamBody(GATEWAY_MODEL, options), format: 'messages' };
  }
}
