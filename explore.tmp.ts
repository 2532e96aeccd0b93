import { startTestGateway } from './test/helpers/gateway.js';
import { startMockUpstreamServer } from './src/conformance/mock-upstream-server.js';
import { loadDocument } from './src/conformance/openapi-document.js';
import { createSchemaValidator } from './src/conformance/schema-validator.js';
import { RequestArbitraries } from './src/conformance/request-arbitraries.js';
import { createSender } from './src/conformance/http-exchange.js';
import { runProperty } from './src/conformance/property-runner.js';
import { formatReport } from './src/conformance/report.js';

const mock = await startMockUpstreamServer();
const gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json', OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: `${mock.url}/v1`, MODELGATE_RATE_LIMIT_RPM: '0', LOG_LEVEL: 'error' } });
const user = await gw.createUser();
await gw.grant(user.userId, 1000);
const doc = await loadDocument();
const validator = createSchemaValidator(doc);
const arbs = new RequestArbitraries(doc, validator, { apiKey: user.key, model: 'openai/gpt-test' });
const raw = createSender(`${gw.url}/api/v1`, { timeoutMs: 10000 });
const stats: Record<string, Record<string, number>> = {};
const samples: Record<string, string[]> = {};
const sender = { ...raw, baseUrl: raw.baseUrl, async send(spec: any) { const ex = await raw.send(spec); const k = spec.operationId + ' ' + (spec.expect ?? 'valid'); stats[k] ??= {}; const key = String(ex.status) + (ex.headers['content-type']?.includes('event-stream') ? '-sse' : ''); stats[k][key] = (stats[k][key] ?? 0) + 1; if (ex.status >= 400 && ex.status !== 401) { (samples[k + ' ' + ex.status] ??= []).push(ex.body.slice(0, 160)); } return ex; } };
const env = { sender, checks: { doc, validator, eventSchemaPointer: '#/components/schemas/ChatCompletionChunk' }, numRuns: Number(process.env.RUNS ?? 40), seed: 1, timeLimitMs: 8000, secrets: new Set([user.key]) };
const results = [];
const t0 = Date.now();
for (const op of doc.operations) {
  if (process.env.OP && op.operationId !== process.env.OP) continue;
  results.push(...await runProperty(env, op, 'valid', arbs.valid(op)));
  const inv = arbs.invalid(op);
  if (inv) results.push(...await runProperty(env, op, 'invalid', inv));
  results.push(...await runProperty(env, op, 'unauthorized', arbs.unauthorized(op)));
}
console.log(formatReport({ baseUrl: sender.baseUrl, spec: { title: doc.title, version: doc.version }, seed: 1, runs: env.numRuns, durationMs: Date.now() - t0, results, requests: 0, ok: false }));
console.log('upstream requests', mock.requests);
console.log(JSON.stringify(stats, null, 1));
for (const [k, v] of Object.entries(samples)) console.log(k, v.length, [...new Set(v.map(x => x.replace(/req_[0-9a-f]+/, '')))].slice(0, 6));
await sender.close(); await gw.close(); await mock.close();
