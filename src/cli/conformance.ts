// `modelgate conformance`: property-based conformance run against any deployment of this API (ours or another
// implementation), printing a report; exit code 1 when a check fails. The key can come from MODELGATE_API_KEY so it
// stays out of shell history and process listings; reports never print it.
import { execFile } from 'node:child_process';
import { parseOptions, UsageError, type Command, type CommandDefinition } from './command.js';

const CONFORMANCE_OPTIONS = `  --base-url            API root, e.g. http://127.0.0.1:8080/api/v1 (a bare origin gets /api/v1 from the spec)
  --api-key             a key of a test account (default: $MODELGATE_API_KEY)
  --runs                generated inputs per operation and input kind (default 100)
  --seed                replay a run (the report prints its seed)
  --model               model for valid chat requests (default: a free one from GET /models, else the cheapest)
  --timeout-seconds     per-request timeout (default 30)
  --time-limit-seconds  time budget per operation and input kind, shrinking included (default 60)
  --admin-cli           shell command that adds {usd} USD of credits to the key's account; enables the credits sequence
  --operation           test only this operationId (repeatable)
  --spec                OpenAPI 3.0 document to test against (default: the one this build was generated from)
  --json                print the report as JSON
  --quiet               no progress lines on stderr`;

export const CONFORMANCE_USAGE = `usage: modelgate conformance --base-url URL [--api-key KEY] [--runs N] [--seed S] [--model M]
         [--timeout-seconds T] [--time-limit-seconds L] [--admin-cli "COMMAND {usd}"] [--operation ID]... [--spec FILE|URL] [--json] [--quiet]

${CONFORMANCE_OPTIONS}`;

const runConformanceCommand: Command = async ({ args, io }) => {
  const { values } = parseOptions(args, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    model: { type: 'string' },
    'timeout-seconds': { type: 'string' },
    'time-limit-seconds': { type: 'string' },
    'admin-cli': { type: 'string' },
    operation: { type: 'string', multiple: true },
    spec: { type: 'string' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean' },
  });
  const baseUrl = values['base-url'];
  if (!baseUrl || !/^https?:\/\//.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL\n\n${CONFORMANCE_USAGE}`);
  const apiKey = values['api-key'] ?? process.env.MODELGATE_API_KEY;
  if (!apiKey) throw new UsageError(`--api-key or MODELGATE_API_KEY is required\n\n${CONFORMANCE_USAGE}`);
  // Loaded on demand: fast-check and Ajv are not needed by `serve` and the other commands.
  const { runConformance } = await import('../conformance/runner.js');
  const { loadDocument } = await import('../conformance/openapi-document.js');
  const { formatReport } = await import('../conformance/report.js');
  const report = await runConformance({
    baseUrl,
    apiKey,
    runs: whole(values.runs, 'runs', 1),
    seed: whole(values.seed, 'seed', 0),
    model: values.model,
    requestTimeoutMs: seconds(values['timeout-seconds'], 'timeout-seconds'),
    timeLimitMs: seconds(values['time-limit-seconds'], 'time-limit-seconds'),
    addCredits: values['admin-cli'] ? adminHook(values['admin-cli']) : undefined,
    operations: values.operation,
    document: values.spec ? await loadDocument(values.spec) : undefined,
    log: values.quiet ? undefined : (line) => io.err(`conformance: ${line}`),
  });
  io.out(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.ok ? 0 : 1;
};

function whole(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return Number(value);
}

function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`--${name} must be a positive number of seconds, got "${value}"`);
  return n * 1000;
}

export const conformanceCommand: CommandDefinition = {
  name: 'conformance',
  usage: [['conformance --base-url URL [--api-key KEY] [--runs N] [--seed S] [--model M] [--json] ...', 'property-based conformance run against a deployment']],
  details: CONFORMANCE_OPTIONS,
  run: runConformanceCommand,
};

/** `{usd}` in the command is replaced by the amount (also in $MODELGATE_CONFORMANCE_USD); without it, appended. */
export function adminHook(template: string): (usd: number) => Promise<void> {
  return (usd) => {
    const amount = usd.toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
    const command = template.includes('{usd}') ? template.replaceAll('{usd}', amount) : `${template} ${amount}`;
    return new Promise((resolve, reject) => {
      execFile('/bin/sh', ['-c', command], { env: { ...process.env, MODELGATE_CONFORMANCE_USD: amount }, timeout: 60_000 }, (err, _stdout, stderr) => {
        if (err) reject(new Error(`--admin-cli command failed (${command}): ${stderr.trim() || err.message}`));
        else resolve();
      });
    });
  };
}
