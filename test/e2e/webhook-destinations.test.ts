// Webhooks reach public addresses only, unless the operator allows private ones: an endpoint on a loopback, private,
// link-local (cloud metadata) or local-name host is refused when saved (400 naming why), and a name that resolves to
// such an address when a delivery connects is refused then (DNS rebinding), with the refusal recorded as the attempt's
// error.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { createLogger } from '../../src/logger.js';
import { WebhookDeliverer } from '../../src/services/webhook-deliverer.js';
import { isPublicAddress, publicDestinationAgent, publicOnlyLookup } from '../../src/services/webhook-destinations.js';

describe('which addresses are public', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.20.0.5', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:a9fe:a9fe', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['not-an-address', false],
    ['8.8.8.8', true],
    ['::ffff:8.8.8.8', true],
    ['2606:4700:4700::1111', true],
  ])('%s: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('a name resolving to loopback fails the lookup, and a connection through the agent is refused', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      publicOnlyLookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.code).toBe('EPRIVATEADDRESS');
    const server: Server = createServer((_req, res) => res.end('reached'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const agent = publicDestinationAgent();
    try {
      const { port } = server.address() as AddressInfo;
      await expect(request(`http://localhost:${port}/`, { dispatcher: agent })).rejects.toThrow(/not a public address/);
    } finally {
      await agent.close();
      server.close();
    }
  });
});

describe('saving and delivering to private destinations', () => {
  let gw: TestGateway;
  let owner: { userId: string; token: string };
  let hits = 0;
  let receiver: Server;
  let receiverPort = 0;

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
        MODELGATE_WEBHOOK_DELIVERY: 'false',
      },
    });
    const user = await gw.createUser();
    owner = { userId: user.userId, token: await gw.createToken(user.userId) };
    receiver = createServer((_req, res) => {
      hits++;
      res.statusCode = 204;
      res.end();
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverPort = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    receiver?.close();
    await gw?.close();
  });

  const create = (url: string) =>
    gw.fetch(`/api/v1/organizations/${owner.userId}/webhooks`, {
      method: 'POST',
      key: owner.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url, event_types: ['key.created'] }),
    });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://localhost./hook',
    'http://[::1]/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://10.0.0.7/hook',
    'http://metadata.google.internal/computeMetadata',
  ])('refuses %s when saved', async (url) => {
    const res = await create(url);
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(400);
    expect(body.error.metadata).toMatchObject({ field: 'url', reason: 'private_destination' });
  });

  it('accepts a public name', async () => {
    expect((await create('https://hooks.example.com/modelgate')).status).toBe(201);
  });

  it('a delivery to an endpoint that names a private host is refused and recorded, never sent', async () => {
    // As if the row had been saved while private destinations were allowed, or the name changed meaning since.
    const made = await create('https://hooks.example.com/rebinding');
    const { id } = (await made.json()) as { id: string };
    await gw.db
      .updateTable('webhook_endpoints')
      .set({ url: `http://localhost:${receiverPort}/hook` })
      .where('id', '=', id)
      .execute();
    const key = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: owner.token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'trigger' }),
    });
    expect(key.status).toBe(201);
    const deliverer = new WebhookDeliverer({
      db: gw.db,
      logger: createLogger('silent'),
      masterKey: gw.parts.config.encryptionKey,
      timeoutMs: 5_000,
      retentionDays: 30,
    });
    try {
      await deliverer.runOnce();
    } finally {
      await deliverer.stop();
    }
    const attempts = await gw.db
      .selectFrom('webhook_attempts')
      .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
      .select(['webhook_attempts.error', 'webhook_attempts.status_code'])
      .where('webhook_deliveries.endpoint_id', '=', id)
      .execute();
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts[0]).toMatchObject({ status_code: null });
    expect(attempts[0].error).toContain('not a public address');
    expect(hits).toBe(0);
  });
});
