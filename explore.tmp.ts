import { startContractGateway } from './test/contract/helpers/contract-gateway.js';
import { runConformance } from './src/conformance/runner.js';
import { formatReport } from './src/conformance/report.js';
const target = await startContractGateway();
const account = await target.gw.createUser();
const report = await runConformance({ baseUrl: target.gw.url, apiKey: process.env.CREDITS ? account.key : target.user.key, runs: Number(process.env.RUNS ?? 200), seed: Number(process.env.SEED ?? 99), model: 'openai/gpt-test', timeLimitMs: Number(process.env.LIMIT ?? 60000), operations: process.env.OPS?.split(','), addCredits: (usd) => target.gw.grant(account.userId, usd), parts: { keys: !!process.env.KEYS, credits: !!process.env.CREDITS, properties: process.env.KINDS ? process.env.KINDS.split(',') as any : undefined }, sequenceRuns: Number(process.env.SEQ ?? 20), log: (l) => console.error(l) });
console.log(formatReport(report));
await target.close();
