// Claude Code (npm @anthropic-ai/claude-code 2.1) on its defaults plus the three variables docs/clients.md shows,
// against an anthropic/ model (issue 37 §5): in a tool turn that reads an image, what reaches the Anthropic upstream
// on the second request keeps the signed thinking block it got on the first (replayed with its signature), the
// cache_control breakpoint Claude Code puts on the tool result, and the image inside the tool result. The gateway
// runs in front of the recorded upstream of test/compat, loopback only.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { claudeCode } from '../compat/clients/claude-code.js';
import { runClientTurn } from '../compat/cells.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../compat/gateway-under-test.js';
import { RecordedUpstream } from '../compat/upstream/recorded-upstream.js';
import { THINKING_SIGNATURE } from '../compat/upstream/render-messages.js';
import { READ_MARKER, RESULT_PREFIX } from '../compat/upstream/script.js';

// A 1×1 PNG: Claude Code's Read tool sends an image file back as an image block inside the tool result.
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let upstream: RecordedUpstream;
let gateway: GatewayUnderTest;

beforeAll(async () => {
  upstream = await new RecordedUpstream().start();
  gateway = await startGatewayUnderTest(upstream);
});
afterAll(async () => {
  await gateway?.close();
  await upstream?.close();
});

it('a tool turn keeps the signed thinking, the cache_control and the image of the tool result', async () => {
  const cell = `cell-claude-defaults-${randomBytes(3).toString('hex')}`;
  const run = await runClientTurn(claudeCode, 'anthropic/claude-sonnet-5-5', gateway, {
    prompt: ({ workspace }) => {
      const image = join(workspace, 'pixel.png');
      writeFileSync(image, PIXEL);
      return `${READ_MARKER} ${image} : read that image with your file-reading tool and describe it (${cell}).`;
    },
  });
  expect(run.outcome.error).toBeUndefined();
  expect(run.outcome.answer).toContain(`${RESULT_PREFIX} image`);

  const requests = upstream
    .find('anthropic', cell)
    .filter((request) => request.protocol === 'messages' && request.body.tools?.length);
  const second = requests.find((request) => JSON.stringify(request.body.messages).includes('"tool_result"'));
  expect(second, 'the turn after the tool ran reached the Anthropic upstream').toBeDefined();
  const messages = second!.body.messages as Array<{ role: string; content: any }>;
  const assistant = messages.find(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.content) &&
      message.content.some((block: any) => block.type === 'tool_use'),
  );
  expect(assistant?.content[0]).toEqual({
    type: 'thinking',
    thinking: expect.any(String),
    signature: THINKING_SIGNATURE,
  });
  const result = messages
    .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
    .find((block: any) => block.type === 'tool_result');
  expect(result.cache_control).toEqual(expect.objectContaining({ type: 'ephemeral' }));
  expect(result.content).toContainEqual(
    expect.objectContaining({
      type: 'image',
      source: expect.objectContaining({ type: 'base64', media_type: 'image/png' }),
    }),
  );
}, 120_000);
