// Test helpers for the Anthropic adapter: an AdapterContext and a parsed request body.
import type { GenerationRequest } from '../../../src/core/generation-request.js';
import { fromChat, type ChatCompletionRequest } from '../../helpers/chat-requests.js';
import type { AdapterContext, AdapterModel, ProviderConfig } from '../../../src/providers/adapter.js';
import { buildRequest } from '../../../src/providers/anthropic/index.js';

export function anthropicContext(
  model: Partial<AdapterModel> = {},
  stream = false,
  provider: Partial<ProviderConfig> = {},
): AdapterContext {
  return {
    provider: {
      id: 'anthropic',
      kind: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      apiKey: 'sk-ant-api03-test',
      ...provider,
    },
    model: {
      id: 'anthropic/claude-sonnet-4-5',
      upstreamModel: 'claude-sonnet-4-5',
      supportsReasoning: true,
      maxOutputTokens: 64000,
      ...model,
    },
    stream,
  };
}

/** The JSON body buildRequest would send for a request written as a chat client writes it. */
export function vendorBody(
  request: Omit<ChatCompletionRequest, 'model'>,
  ctx: AdapterContext = anthropicContext(),
): Record<string, unknown> {
  return internalBody(
    fromChat({ model: 'anthropic/claude-sonnet-4-5', ...request } as ChatCompletionRequest, ctx.stream),
    ctx,
  );
}

/** The JSON body buildRequest would send for an internal request. */
export function internalBody(
  request: GenerationRequest,
  ctx: AdapterContext = anthropicContext(),
): Record<string, unknown> {
  return JSON.parse(buildRequest(request, ctx).body) as Record<string, unknown>;
}
