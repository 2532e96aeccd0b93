// A request naming a preset, made ready by the door request (http/door-request.ts): routing and admission read the
// preset's model, fallbacks, provider preferences and output cap; the native lane's bytes and the translated lane's
// parse carry its settings in the door's own fields; the request's own fields win. And each door's fill on its own.
import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/auth/principal.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { chatDoor } from '../../src/formats/chat-completions/door.js';
import { geminiWithPreset } from '../../src/formats/gemini/preset-fill.js';
import { messagesWithPreset } from '../../src/formats/messages/preset-fill.js';
import { responsesWithPreset } from '../../src/formats/responses/preset-fill.js';
import type { DoorCall, FrontDoor } from '../../src/formats/shared/front-door.js';
import { doorRequest } from '../../src/http/door-request.js';
import type { PresetReference, PresetSettings, PresetVersion } from '../../src/core/preset.js';

const catalog = loadCatalog({ MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' });
const principal = { organizationId: 'org_a', aliases: new Map() } as unknown as Principal;

const SETTINGS: PresetSettings = {
  model: 'openai/gpt-test',
  models: ['openai/gpt-test', 'deepseek/deepseek-reasoner'],
  provider: { sort: 'price' },
  system: 'Be brief.',
  temperature: 0.3,
  max_tokens: 777,
  tools: [{ type: 'function', function: { name: 'lookup', description: 'Look up', parameters: { type: 'object' } } }],
};

/** The organization's presets: `coder` at version 2, version 1 kept for pins. */
const presets = {
  async find(organizationId: string, reference: PresetReference): Promise<PresetVersion | undefined> {
    if (organizationId !== 'org_a' || reference.slug !== 'coder') return undefined;
    if (reference.version === 1)
      return { slug: 'coder', version: 1, settings: { model: 'deepseek/deepseek-reasoner' } };
    if (reference.version === undefined || reference.version === 2)
      return { slug: 'coder', version: 2, settings: SETTINGS };
    return undefined;
  },
};

function ready<Body>(door: FrontDoor<Body>, body: Body) {
  const call: DoorCall<Body> = {
    body,
    operationId: 'createChatCompletion',
    pathParam: () => undefined,
    query: () => undefined,
    headers: {},
  };
  const raw = Buffer.from(JSON.stringify(body));
  return doorRequest(
    door,
    { catalog, config: { streamDefault: false }, presets },
    {
      call,
      wire: { raw, body: body as Record<string, unknown>, gatewayFields: [], clientHeaders: {} },
      headers: {},
      principal,
    },
  );
}

const hi = [{ role: 'user' as const, content: 'Hi' }];

describe('a chat request naming a preset', () => {
  it('routing and admission read the preset: model, fallbacks, provider preferences, output cap, parameters', async () => {
    const { request } = await ready(chatDoor, { model: '@preset/coder', stream: false, messages: hi });
    expect(request.facts.model).toBe('openai/gpt-test');
    expect(request.facts.models).toEqual(SETTINGS.models);
    expect(request.facts.provider).toEqual({ sort: 'price' });
    expect(request.facts.maxOutputTokens).toBe(777);
    expect(request.facts.hasTools).toBe(true);
    expect(request.facts.sentParameters).toEqual(expect.arrayContaining(['temperature', 'max_tokens', 'tools']));
    // The native lane sends the filled body; the translated lane parses it.
    const sent = JSON.parse(request.wire.raw.toString());
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent.temperature).toBe(0.3);
    const parsed = request.translate();
    expect(JSON.stringify(parsed)).toContain('Be brief.');
  });

  it("the request's own fields win, and a pinned version serves its own settings", async () => {
    const own = await ready(chatDoor, {
      model: '@preset/coder',
      stream: false,
      temperature: 1,
      max_completion_tokens: 10,
      models: ['deepseek/deepseek-reasoner'],
      messages: [{ role: 'system', content: 'Mine.' }, ...hi],
    });
    const sent = JSON.parse(own.request.wire.raw.toString());
    expect(sent.temperature).toBe(1);
    expect(sent.max_tokens).toBeUndefined();
    expect(sent.messages.map((m: { content: string }) => m.content)).toEqual(['Mine.', 'Hi']);
    expect(own.request.facts.models).toEqual(['deepseek/deepseek-reasoner']);
    expect(own.request.facts.maxOutputTokens).toBe(10);

    const pinned = await ready(chatDoor, { model: '@preset/coder@1', stream: false, messages: hi });
    expect(pinned.request.facts.model).toBe('deepseek/deepseek-reasoner');
    expect(JSON.parse(pinned.request.wire.raw.toString()).messages).toEqual(hi);
  });

  it('an unknown preset or version is a 404, a malformed version a 400; a model that names none is as sent', async () => {
    await expect(ready(chatDoor, { model: '@preset/ghost', messages: hi })).rejects.toMatchObject({
      status: 404,
      metadata: { reason: 'preset_not_found' },
    });
    await expect(ready(chatDoor, { model: '@preset/coder@3', messages: hi })).rejects.toMatchObject({
      status: 404,
      metadata: { reason: 'preset_version_not_found', latest_version: 2 },
    });
    await expect(ready(chatDoor, { model: '@preset/coder@0', messages: hi })).rejects.toMatchObject({
      status: 400,
      metadata: { reason: 'invalid_preset_version' },
    });
    const plain = await ready(chatDoor, { model: 'openai/gpt-test', messages: hi });
    expect(plain.request.facts.model).toBe('openai/gpt-test');
  });
});

describe("each door's fill", () => {
  const reasoning: PresetSettings = { ...SETTINGS, stop: ['END'], reasoning: { max_tokens: 2048 } };

  it('Messages: system, stop_sequences, a budget as thinking, an effort as output_config, tools with input_schema', () => {
    const body = { model: '@preset/coder', max_tokens: 100, messages: hi };
    const filled = messagesWithPreset(body, reasoning) as Record<string, unknown>;
    expect(filled).toMatchObject({
      system: 'Be brief.',
      max_tokens: 100,
      temperature: 0.3,
      stop_sequences: ['END'],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      tools: [{ name: 'lookup', description: 'Look up', input_schema: { type: 'object' } }],
    });
    const effort = messagesWithPreset(body, { ...SETTINGS, reasoning: { effort: 'xhigh' } }) as Record<string, unknown>;
    expect(effort.output_config).toEqual({ effort: 'max' });
    const own = messagesWithPreset({ ...body, system: 'Mine.', thinking: { type: 'disabled' } }, reasoning);
    expect(own).toMatchObject({ system: 'Mine.', thinking: { type: 'disabled' } });
  });

  it('Responses: instructions, max_output_tokens, reasoning effort, function tools; no stop strings', () => {
    const filled = responsesWithPreset(
      { model: '@preset/coder', input: 'Hi' },
      {
        ...reasoning,
        reasoning: { effort: 'low' },
      },
    ) as Record<string, unknown>;
    expect(filled).toMatchObject({
      instructions: 'Be brief.',
      max_output_tokens: 777,
      reasoning: { effort: 'low' },
      tools: [{ type: 'function', name: 'lookup', description: 'Look up', parameters: { type: 'object' } }],
    });
    expect(filled.stop).toBeUndefined();
  });

  it('Gemini: systemInstruction, generationConfig kept and filled, function declarations', () => {
    const filled = geminiWithPreset(
      { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { temperature: 0.9 } },
      reasoning,
    ) as Record<string, unknown>;
    expect(filled).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: {
        temperature: 0.9,
        maxOutputTokens: 777,
        stopSequences: ['END'],
        thinkingConfig: { thinkingBudget: 2048 },
      },
      tools: [
        {
          functionDeclarations: [{ name: 'lookup', description: 'Look up', parametersJsonSchema: { type: 'object' } }],
        },
      ],
    });
  });
});
