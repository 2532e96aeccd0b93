import { startTestGateway } from './test/helpers/gateway.js';
const gw = await startTestGateway({ env: { LOG_LEVEL: 'error' } });
const user = await gw.createUser();
for (const name of ['a\u0000b', '\ud800', 'x'.repeat(100)]) {
  const r = await gw.fetch('/api/v1/api-keys', { method: 'POST', key: user.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
  console.log(JSON.stringify(name).slice(0, 20), r.status, (await r.text()).slice(0, 200));
}
const r = await gw.fetch('/api/v1/generation?id=%00', { key: user.key });
console.log(r.status, await r.text());
const r2 = await gw.fetch('/api/v1/api-keys/%00', { key: user.key, method: 'DELETE' });
console.log(r2.status, await r2.text());
await gw.close();
