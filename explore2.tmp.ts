import { startTestGateway } from './test/helpers/gateway.js';
const gw = await startTestGateway({ env: { LOG_LEVEL: 'error' } });
const user = await gw.createUser();
await gw.fetch('/api/v1/api-keys', { method: 'POST', key: user.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a\u0000b' }) });
await gw.fetch('/api/v1/generation?id=%00', { key: user.key });
await gw.fetch('/api/v1/api-keys/%00', { key: user.key, method: 'DELETE' });
for (const l of gw.logs) { const j = JSON.parse(l); if (j.level >= 50) console.log(j.msg, j.err?.message, (j.err?.stack ?? '').split('\n').slice(1, 5).join(' | ')); }
await gw.close();
