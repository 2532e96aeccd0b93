// What each native reader says the vendor served (core/served-options.ts), from the vendors' recorded answers: OpenAI's
// `service_tier` of the Response (the final one of a stream) and of the chat completion and its chunks, Anthropic's
// usage fields (message_start's in a stream, so a stream cut before message_delta still knows); and what the meter
// bills when the usage never came: the options the answer showed, else those the attempt asked for.
import { describe, expect, it } from 'vitest';
import { nativeMessages } from '../../src/providers/anthropic/native-messages.js';
import { nativeResponses } from '../../src/providers/openai-responses/native-responses.js';
import { nativeChat } from '../../src/providers/openai-compatible/native-chat.js';
import { GenerationMeter } from '../../src/pipeline/generation-meter.js';
import { cutOffEstimate } from '../../src/pipeline/cut-off-estimate.js';
import { observeReading } from '../../src/pipeline/native-lane.js';
import { loadCatalog } from '../../src/catalog/load-catalog.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../helpers/native-replay.js';

const openai = {
  id: 'openai',
  kind: 'openai-compatible' as const,
  baseUrl: 'https://api.openai.com/v1',
  apiKey: 'sk-test',
};
const anthropic = {
  id: 'anthropic',
  kind: 'anthropic' as const,
  baseUrl: 'https://api.anthropic.com',
  apiKey: 'sk-ant-test',
};
const gpt = nativeContext(openai, 'openai/gpt-5.5', 'gpt-5.5');
const claude = nativeContext(anthropic, 'anthropic/claude-opus-5-5', 'claude-opus-5-5');

describe("served options read from the vendors' answers", () => {
  it("OpenAI Responses: the Response's service_tier, JSON and the stream's final Response; a standard tier is none", () => {
    const json = nativeResponses.readJson(
      Buffer.from(fixtureText('openai', 'native-responses-priority.json')),
      gpt,
    ).reading;
    expect(json.usage?.served).toEqual({ service_tier: 'priority' });
    expect(
      lastUsage(nativeReadings(nativeResponses, gpt, fixtureText('openai', 'native-responses-priority.chunks.txt')))
        ?.served,
    ).toEqual({ service_tier: 'priority' });
    expect(
      lastUsage(nativeReadings(nativeResponses, gpt, fixtureText('openai', 'native-responses-text.chunks.txt'))),
    ).not.toHaveProperty('served');
  });

  it("OpenAI chat: the completion's service_tier; in a stream each chunk says it", () => {
    const json = nativeChat.readJson(Buffer.from(fixtureText('openai', 'chat-priority.json')), gpt).reading;
    expect(json.usage?.served).toEqual({ service_tier: 'priority' });
    const readings = nativeReadings(nativeChat, gpt, fixtureText('openai', 'chat-priority.chunks.txt'));
    expect(readings.filter((r) => r.served).length).toBeGreaterThan(1);
    const meter = new GenerationMeter(10);
    for (const reading of readings) observeReading(meter, reading);
    expect(meter.finalUsage()).toMatchObject({ promptTokens: 1000, served: { service_tier: 'priority' } });
    expect(nativeChat.readJson(Buffer.from(fixtureText('openai', 'text.json')), gpt).reading.usage).not.toHaveProperty(
      'served',
    );
  });

  it("Anthropic: the usage's speed and inference_geo, JSON and stream; a stream cut before message_delta still has them", () => {
    const served = { speed: 'fast', inference_geo: 'us' };
    expect(
      nativeMessages.readJson(Buffer.from(fixtureText('anthropic', 'fast-mode.json')), claude).reading.usage?.served,
    ).toEqual(served);
    const text = fixtureText('anthropic', 'fast-mode.chunks.txt');
    expect(lastUsage(nativeReadings(nativeMessages, claude, text))?.served).toEqual(served);
    const cut = nativeReadings(nativeMessages, claude, text, '"message_delta"');
    expect(cut[0].served).toEqual(served);
    expect(lastUsage(cut)).toMatchObject({ completionTokens: 1, served });
    expect(
      nativeMessages.readJson(Buffer.from(fixtureText('anthropic', 'text.json')), claude).reading.usage,
    ).not.toHaveProperty('served');
  });
});

describe('served options of an estimate', () => {
  it("the meter bills what the answer showed, else what the attempt asked for; a failed attempt's are forgotten", () => {
    const meter = new GenerationMeter(100);
    meter.expectServed({ service_tier: 'priority' });
    expect(meter.finalUsage().served).toEqual({ service_tier: 'priority' });
    meter.observeServed({ service_tier: 'flex' });
    expect(meter.finalUsage().served).toEqual({ service_tier: 'flex' });
    meter.resetAttempt();
    meter.expectServed(undefined);
    expect(meter.finalUsage()).not.toHaveProperty('served');
  });

  it('a cut-off drain is billed at the options shown, else those reserved for, within the reservation', () => {
    const entry = loadCatalog({}).get('openai/gpt-5.5')!;
    const meter = { estimatedPromptTokens: 1000, generatedTokens: 5 };
    expect(cutOffEstimate(entry, 3000, meter, 1_000, { options: { service_tier: 'priority' } }).usage.served).toEqual({
      service_tier: 'priority',
    });
    expect(
      cutOffEstimate(entry, 3000, { ...meter, servedSeen: { service_tier: 'flex' } }, 1_000, {
        options: { service_tier: 'priority' },
      }).usage.served,
    ).toEqual({ service_tier: 'flex' });
    expect(cutOffEstimate(entry, 3000, meter, 1_000).usage).not.toHaveProperty('served');
  });
});
