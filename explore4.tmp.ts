import { startContractGateway } from './test/contract/helpers/contract-gateway.js';
import { startFaultyProxy } from './test/contract/helpers/faulty-proxy.js';
import { runConformance } from './src/conformance/runner.js';
import { formatReport } from './src/conformance/report.js';
const target = await startContractGateway();
const proxy = await startFaultyProxy(target.gw.url, {
  intercept: (req) => { const id = /^\/api\/v1\/api-keys\/([^/?]+)$/.exec(req.path)?.[1]; if (req.method !== 'DELETE' || !id) return undefined; return { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_fake' }, body: JSON.stringify({ deleted: true, key_id: decodeURIComponent(id) }) }; },
  alter: (req, res) => (req.path.startsWith('/api/v1/api-keys') && req.method === 'POST' && res.status === 400 ? { ...res, status: 201 } : res),
});
const report = await runConformance({ baseUrl: proxy.url, apiKey: target.user.key, runs: 20, seed: 3, timeLimitMs: 5000, model: 'openai/gpt-test', operations: ['createApiKey'], parts: { keys: true, credits: false } });
console.log(formatReport(report));
await proxy.close(); await target.close();
