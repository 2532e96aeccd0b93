// Messages `document` blocks (the request shapes of Anthropic's PDF and citations docs, test/fixtures/messages/) →
// internal document blocks → each provider adapter's upstream request: the blocks as they came to Anthropic (tool
// results included), `file` parts to OpenAI and OpenRouter, inline data or file URIs to Gemini, text parts for text
// and content sources, and clear 400s where an endpoint cannot take a PDF.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseMessagesRequest } from '../../../src/formats/messages/parse-request.js';
import type { MessagesRequest } from '../../../src/formats/messages/wire-types.js';
import type { GenerationRequest } from '../../../src/core/generation-request.js';
import { buildRequest as buildAnthropicRequest } from '../../../src/providers/anthropic/index.js';
import { buildRequest as buildGeminiRequest } from '../../../src/providers/gemini/convert-request.js';
import { buildRequest as buildChatRequest } from '../../../src/providers/openai-compatible/convert-request.js';
import type { AdapterContext, ProviderConfig } from '../../../src/providers/adapter.js';
import { checkRequest } from '../../../src/routing/check-request.js';
import { messagesRequestFacts } from '../../../src/formats/messages/request-facts.js';
import { estimatePromptTokens } from '../../../src/routing/token-estimate/estimate-tokens.js';
import { anthropicContext } from '../../providers/anthropic/anthropic-context.js';
import { geminiContext } from '../../providers/gemini/helpers.js';
import type { CatalogEntry } from '../../../src/catalog/types.js';
import { loadCatalog } from '../../../src/catalog/load-catalog.js';
import { loadProviderConfigs } from '../../../src/providers/registry.js';
import { createOpenAICompatibleAdapter } from '../../../src/providers/openai-compatible/index.js';
import { planRoute } from '../../../src/routing/plan-route.js';
import { InMemoryCircuitBreaker } from '../../../src/routing/circuit-breaker.js';
import { EndpointStats } from '../../../src/routing/endpoint-stats.js';
import { fromChat } from '../../helpers/chat-requests.js';
import { thrown } from '../../helpers/thrown.js';

const fixture = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../fixtures/messages/${name}.json`, import.meta.url), 'utf8')) as T;
const documents = fixture<MessagesRequest>('document-blocks.request');
const urlDocument = fixture<MessagesRequest>('document-url.request');
const PDF_URL = fixture<any>('document-url.request').messages[0].content[0].source.url as string;

function internal(body: MessagesRequest, model = 'm/x'): GenerationRequest {
  return parseMessagesRequest(body, model, false);
}

function chatContext(vendor: string, quirks?: ProviderConfig['quirks']): AdapterContext {
  const provider: ProviderConfig = {
    id: vendor,
    kind: 'openai-compatible',
    baseUrl: 'https://vendor.test/v1',
    apiKey: 'sk-test',
    ...(quirks ? { quirks } : {}),
  };
  return {
    provider,
    model: { id: `${vendor}/model`, upstreamModel: 'model', supportsReasoning: false },
    stream: false,
  };
}

const sent = (request: { body: string }) => JSON.parse(request.body) as Record<string, any>;

/** A conversation whose tool result holds a text document (Claude Code's Read tool answers that way). */
const withToolResult = {
  ...documents,
  messages: [
    { role: 'user', content: 'read it' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'text', text: 'done' },
            { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'file body' } },
          ],
        },
      ],
    },
  ],
} as MessagesRequest;

describe('document blocks → internal blocks', () => {
  it('a URL PDF is a document with a URL source; a document inside a tool_result stays inside it', () => {
    expect(internal(urlDocument).messages[0].content).toEqual([
      { type: 'document', source: { kind: 'url', url: PDF_URL } },
      { type: 'text', text: 'What are the key findings in this document?' },
    ]);
    expect(internal(withToolResult).messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          callId: 't1',
          content: [
            { type: 'text', text: 'done' },
            { type: 'document', source: { kind: 'text', text: 'file body' } },
          ],
        },
      ],
    });
  });

  it('content sources keep their images; unsupported sources and non-PDF base64 are 400', () => {
    const body = {
      ...documents,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: {
                type: 'content',
                content: [
                  { type: 'text', text: 'Figure 1:' },
                  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
                  { type: 'text', text: 'caption' },
                ],
              },
            },
          ],
        },
      ],
    } as MessagesRequest;
    expect(internal(body).messages[0].content).toEqual([
      {
        type: 'document',
        source: {
          kind: 'blocks',
          blocks: [
            { type: 'text', text: 'Figure 1:' },
            { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'text', text: 'caption' },
          ],
        },
      },
    ]);
    const file = {
      ...documents,
      messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'file_1' } }] }],
    } as unknown as MessagesRequest;
    expect(thrown(() => internal(file))).toMatchObject({
      status: 400,
      metadata: { field: 'messages[0].content[0].source.type' },
    });
    const docx = {
      ...documents,
      messages: [
        {
          role: 'user',
          content: [{ type: 'document', source: { type: 'base64', media_type: 'application/msword', data: 'AA==' } }],
        },
      ],
    } as unknown as MessagesRequest;
    expect(thrown(() => internal(docx)).status).toBe(400);
    const assistant = {
      ...documents,
      messages: [{ role: 'assistant', content: documents.messages[0].content }],
    } as MessagesRequest;
    expect(thrown(() => internal(assistant)).status).toBe(400);
  });
});

describe('document blocks → upstream requests', () => {
  it('Anthropic: every document block goes unchanged (title, context, citations, cache_control, source kind)', () => {
    const body = sent(buildAnthropicRequest(internal(documents, 'anthropic/claude-sonnet-4-5'), anthropicContext()));
    expect(body.messages).toEqual([{ role: 'user', content: documents.messages[0].content }]);
    const byUrl = sent(buildAnthropicRequest(internal(urlDocument, 'anthropic/claude-sonnet-4-5'), anthropicContext()));
    expect(byUrl.messages).toEqual(urlDocument.messages);
    // Inside a tool_result too: the result keeps its text and its document.
    const result = sent(
      buildAnthropicRequest(internal(withToolResult, 'anthropic/claude-sonnet-4-5'), anthropicContext()),
    );
    expect(result.messages[2]).toEqual(withToolResult.messages[2]);
  });

  it('OpenAI-compatible and Gemini: a document inside a tool result follows the result, as an image would', () => {
    expect(sent(buildChatRequest(internal(withToolResult), chatContext('openai'))).messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 't1', content: 'done' },
      { role: 'user', content: 'file body' },
    ]);
    expect(sent(buildGeminiRequest(internal(withToolResult), geminiContext())).contents[2]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { name: 'read', response: { output: 'done' } } }, { text: 'file body' }],
    });
  });

  it('Anthropic: a chat-format file part (from /chat/completions) becomes a document block', () => {
    const request = fromChat({
      model: 'anthropic/claude-sonnet-4-5',
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'file',
              file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' },
              cache_control: { type: 'ephemeral' },
            },
            { type: 'file', file: { file_data: 'https://example.com/b.pdf' } },
          ],
        },
      ],
    });
    expect(sent(buildAnthropicRequest(request, anthropicContext())).messages[0].content).toEqual([
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' },
        title: 'a.pdf',
        cache_control: { type: 'ephemeral' },
      },
      { type: 'document', source: { type: 'url', url: 'https://example.com/b.pdf' } },
    ]);
  });

  it('OpenAI: file parts with base64 file_data; a URL PDF is a 400 naming the endpoint', () => {
    expect(sent(buildChatRequest(internal(documents), chatContext('openai'))).messages).toEqual(
      fixture('document-blocks.openai-messages'),
    );
    const err = thrown(() => buildChatRequest(internal(urlDocument), chatContext('openai')));
    expect(err).toMatchObject({ status: 400, metadata: { reason: 'file_url_not_supported', provider: 'openai' } });
    expect(err.message).toContain('openai/model at openai');
  });

  it('OpenRouter takes URL PDFs; a vendor without file parts (DeepSeek) is a 400 file_input_not_supported', () => {
    expect(sent(buildChatRequest(internal(urlDocument), chatContext('openrouter'))).messages[0].content[0]).toEqual({
      type: 'file',
      file: { filename: 'document.pdf', file_data: PDF_URL },
    });
    expect(thrown(() => buildChatRequest(internal(documents), chatContext('deepseek'))).metadata).toMatchObject({
      reason: 'file_input_not_supported',
      provider: 'deepseek',
    });
    // An operator can declare file support for a server the gateway does not know (quirks.fileParts).
    expect(
      sent(buildChatRequest(internal(documents), chatContext('my-vllm', { fileParts: 'inline' }))).messages,
    ).toEqual(fixture('document-blocks.openai-messages'));
    // Text documents are plain text: every vendor takes them.
    const text = {
      ...documents,
      messages: [{ role: 'user', content: [documents.messages[0].content[1]] }],
    } as MessagesRequest;
    // (one text part goes as a plain string)
    expect(sent(buildChatRequest(internal(text), chatContext('deepseek'))).messages[0].content).toEqual(
      fixture<any[]>('document-blocks.openai-messages')[0].content[2].text,
    );
  });

  it('Gemini: inline PDFs as inlineData, URL PDFs as fileData', () => {
    expect(sent(buildGeminiRequest(internal(documents), geminiContext())).contents).toEqual(
      fixture('document-blocks.gemini-contents'),
    );
    expect(sent(buildGeminiRequest(internal(urlDocument), geminiContext())).contents[0].parts[0]).toEqual({
      fileData: { mimeType: 'application/pdf', fileUri: PDF_URL },
    });
  });
});

describe('capabilities', () => {
  const entry = (supportsImages: boolean) =>
    ({ id: 'x/m', supportsImages, supportsTools: true, contextLength: 100_000 }) as CatalogEntry;

  it('a PDF needs a model with supportsImages (400 file_input_not_supported); text documents need nothing', () => {
    // Planning reads the door's facts (a walk of the wire body), never the translation.
    const facts = (body: MessagesRequest) => messagesRequestFacts(body, 'x/m');
    expect(thrown(() => checkRequest(facts(documents), entry(false))).metadata).toMatchObject({
      reason: 'file_input_not_supported',
      model: 'x/m',
    });
    // The PDFs count by their pages, as the translated request's estimate counts them.
    expect(checkRequest(facts(documents), entry(true)).estimatedPromptTokens).toBeGreaterThanOrEqual(
      estimatePromptTokens(internal(documents)),
    );
    const text = {
      ...documents,
      messages: [{ role: 'user', content: [documents.messages[0].content[1]] }],
    } as MessagesRequest;
    expect(() => checkRequest(facts(text), entry(false))).not.toThrow();
  });

  it('routing skips endpoints that cannot take a PDF (model without supportsImages, vendor without file parts)', () => {
    // alpha/chat: endpoints alpha and beta take images, gamma does not (test/fixtures/catalog/routing-catalog.json).
    // All three are OpenAI-compatible servers the gateway knows nothing of: no file parts unless declared (quirks).
    const catalog = loadCatalog({ MODELGATE_CATALOG: 'test/fixtures/catalog/routing-catalog.json' });
    const depsWith = (fileParts: Record<string, string>) => {
      const providers = loadProviderConfigs({ ALPHA_API_KEY: 'a', BETA_API_KEY: 'b', GAMMA_API_KEY: 'g' }, catalog);
      for (const [id, value] of Object.entries(fileParts)) providers.getProvider(id)!.quirks = { fileParts: value };
      return {
        catalog,
        providers,
        adapters: { 'openai-compatible': createOpenAICompatibleAdapter() },
        breaker: new InMemoryCircuitBreaker({ failureThreshold: 3, cooldownMs: 60_000 }),
        endpointStats: new EndpointStats(),
      };
    };
    const pdf = (provider: NonNullable<MessagesRequest['provider']>) => ({
      ...messagesRequestFacts(documents, 'alpha/chat'),
      provider,
    });
    const declared = depsWith({ alpha: 'inline', beta: 'inline', gamma: 'inline' });
    expect(planRoute(declared, pdf({ order: ['gamma', 'alpha'] })).targets.map((t) => t.provider.id)).toEqual([
      'alpha',
      'beta',
    ]);
    expect(planRoute(depsWith({ beta: 'inline' }), pdf({})).targets.map((t) => t.provider.id)).toEqual(['beta']);
    const err = thrown(() => planRoute(declared, pdf({ only: ['gamma'] })));
    expect(err.status).toBe(400);
    expect(err.metadata?.endpoints).toContainEqual({
      model: 'alpha/chat',
      provider: 'gamma',
      reason: 'file_input_not_supported',
    });
    expect(err.message).toContain('does not accept PDF documents');
  });
});
