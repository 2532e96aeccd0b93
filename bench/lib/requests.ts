// The requests every system receives. The bodies are the same OpenAI-format chat request; only the model name
// differs (the gateway's catalog id vs the upstream's own name), plus the headers each system needs.
import type { Scenario } from './plan.js';
import { probeMarker } from '../mock-replies.js';

export const UPSTREAM_MODEL = 'gpt-test-2026';
export const GATEWAY_MODEL = 'openai/gpt-test';
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
  const marker = options.probePaceMs === undefined ? '' : ` ${probeMarker(options.probePaceMs)}`;
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

/** The streaming request of `chatBody('stream', …)` as an OpenAI Responses API request (POST /responses). */
export function responsesStreamBody(model: string): string {
  return JSON.stringify({
    model,
    instructions: 'You are a concise assistant.',
    input: 'Say hello in about twenty words.',
    max_output_tokens: 64,
    stream: true,
  });
}

/** The same request as an Anthropic Messages API request (POST /messages). */
export function messagesStreamBody(model: string): string {
  return JSON.stringify({
    model,
    system: 'You are a concise assistant.',
    messages: [{ role: 'user', content: 'Say hello in about twenty words.' }],
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

