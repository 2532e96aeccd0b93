// Anthropic's token counter (POST /v1/messages/count_tokens) for the Messages front door's count_tokens: the same
// prompt translation as a generation, without the output fields the counter rejects (max_tokens, stream, sampling).
import type { GenerationRequest } from '../../core/generation-request.js';
import type { AdapterContext, UpstreamRequest } from '../adapter.js';
import { readCount, readRecord } from '../payload-readers.js';
import { buildBody, buildRequest, messagesUrl } from './convert-request.js';

export function buildCountTokensRequest(request: GenerationRequest, ctx: AdapterContext): UpstreamRequest {
  const full = buildBody(request, ctx);
  const body: Record<string, unknown> = { model: full.model, messages: full.messages };
  if (full.system !== undefined) body.system = full.system;
  if (full.tools) body.tools = full.tools;
  if (full.tool_choice) body.tool_choice = full.tool_choice;
  if (full.thinking) body.thinking = full.thinking;
  const { headers } = buildRequest(request, { ...ctx, stream: false });
  return {
    method: 'POST',
    url: `${messagesUrl(ctx.provider.baseUrl)}/count_tokens`,
    headers,
    body: JSON.stringify(body),
  };
}

/** `{input_tokens}` of the counter's answer, or undefined when the body is not one. */
export function readCountTokens(body: unknown): number | undefined {
  return readCount(readRecord(body)?.input_tokens);
}
