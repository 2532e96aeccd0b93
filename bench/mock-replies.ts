// What the benchmark's mock upstream answers, in the OpenAI chat-completions wire format: one JSON completion,
// or an SSE stream of a role chunk, 18 content chunks, a finish chunk, a usage chunk and [DONE] (~20 events).
// Probe requests (PROBE_MARKER in the last message) get each content chunk stamped with the mock's monotonic
// clock and paced, so the probe can see whether a system holds chunks back.

export const CONTENT_WORDS = [
  'Hello',
  ' there',
  ',',
  ' this',
  ' is',
  ' a',
  ' benchmark',
  ' reply',
  ' streamed',
  ' in',
  ' small',
  ' pieces',
  ' like',
  ' a',
  ' real',
  ' model',
  ' does',
  '.',
] as const;

export const COMPLETION_TOKENS = CONTENT_WORDS.length;
const CREATED = 1760000000;
const ID = 'chatcmpl-bench';

/** Put in the last user message to ask for stamped, paced chunks: `[bench:probe pace=1]` (milliseconds). */
export const PROBE_MARKER = /\[bench:probe pace=(\d+)\]/;

export function probeMarker(paceMs: number): string {
  return `[bench:probe pace=${paceMs}]`;
}

/** The pace asked for by a parsed request body, or undefined for ordinary (instant, unstamped) requests. */
export function probePace(body: unknown): number | undefined {
  const match = PROBE_MARKER.exec(lastMessageText(body) ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Put in the last user message to ask for a slow stream, as long generations are (bench/load-streams.ts): after the
 * role chunk, `chunks` content chunks `everyMs` apart, then the finish and usage chunks.
 */
export const SLOW_MARKER = /\[bench:slow chunks=(\d+) every=(\d+)\]/;

export function slowMarker(chunks: number, everyMs: number): string {
  return `[bench:slow chunks=${chunks} every=${everyMs}]`;
}

/** The slow stream asked for by a parsed request body, or undefined. */
export function slowStream(body: unknown): { chunks: number; everyMs: number } | undefined {
  const match = SLOW_MARKER.exec(lastMessageText(body) ?? '');
  return match ? { chunks: Number(match[1]), everyMs: Number(match[2]) } : undefined;
}

function lastMessageText(body: unknown): string | undefined {
  const messages = (body as { messages?: { content?: unknown }[] } | null)?.messages;
  const last = Array.isArray(messages) ? messages[messages.length - 1] : undefined;
  return typeof last?.content === 'string' ? last.content : undefined;
}

/** `[t:<ns>]` — a CLOCK_MONOTONIC reading (process.hrtime.bigint), comparable across processes on one host. */
export function stamp(ns: bigint): string {
  return `[t:${ns}]`;
}

export function readStamp(content: string): bigint | undefined {
  const match = /\[t:(\d+)\]/.exec(content);
  return match ? BigInt(match[1]) : undefined;
}

/** Prompt tokens the mock reports: about four characters per token of the request body. */
export function promptTokensFor(bodyBytes: number): number {
  return Math.max(1, Math.ceil(bodyBytes / 4));
}

function usage(promptTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: COMPLETION_TOKENS,
    total_tokens: promptTokens + COMPLETION_TOKENS,
  };
}

export function completionJson(model: string, promptTokens: number): string {
  return JSON.stringify({
    id: ID,
    object: 'chat.completion',
    created: CREATED,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: CONTENT_WORDS.join('') }, finish_reason: 'stop' }],
    usage: usage(promptTokens),
  });
}

function frame(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function chunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null): string {
  return frame({
    id: ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
}

export function roleFrame(model: string): string {
  return chunk(model, { role: 'assistant', content: '' });
}

export function contentFrame(model: string, text: string): string {
  return chunk(model, { content: text });
}

/** Finish chunk, the usage chunk when the client asked for it (stream_options.include_usage), and [DONE]. */
export function tailFrames(model: string, promptTokens: number, includeUsage: boolean): string[] {
  const frames = [chunk(model, {}, 'stop')];
  if (includeUsage) {
    frames.push(
      frame({
        id: ID,
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        choices: [],
        usage: usage(promptTokens),
      }),
    );
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}
