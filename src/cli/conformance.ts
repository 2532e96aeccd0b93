// `modelgate conformance`: property-based conformance run against any deployment of this API (ours or another
// implementation), printing a report; exit code 1 when a check fails. The keys can come from MODELGATE_API_KEY and
// MODELGATE_MANAGEMENT_KEY so they stay out of shell history and process listings; reports never print them.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { CLI, parseOptions, UsageError, type Command, type CommandDefinition } from './command.js';

const CONFORMANCE_OPTIONS = `  --base-url            API root, e.g. http://127.0.0.1:8080/api/v1 (a bare origin gets /api/v1 from the spec)
  --api-key             a key of a test account (default: $MODELGATE_API_KEY)
  --management-key      the same account's account token or management key (default: $MODELGATE_MANAGEMENT_KEY):
                        creates, changes and deletes keys, which an API key may not; without it the key lifecycle
                        is skipped on a deployment with key scopes
  --profile             core: only what the seed API defines (chat completions, API keys); modelgate (default):
                        the extensions too — those answering 404 are reported as not implemented
  --runs                generated inputs per operation and input kind (default 100)
  --seed                replay a run (the report prints its seed)
  --model               model for valid chat requests (default: a free one from GET /models, else the cheapest;
                        without either, valid inputs of operations that name a model are skipped)
  --timeout-seconds     per-request timeout (default 30)
  --time-limit-seconds  time budget per operation and input kind, shrinking included (default 60)
  --admin-cli           shell command that adds {usd} USD of credits to the key's account; enables the credits sequence
  --mid-stream-error-prompt  a user message that makes the deployment fail a stream after it began (e.g. a test
                        upstream's trigger phrase); enables the mid-stream error chunk check
  --operation           test only this operationId (repeatable)
  --spec                OpenAPI 3.0 document to test against (default: the one this build was generated from)
  --json                print the report as JSON instead of the table
  --junit               also write the report as JUnit XML to FILE (for CI test reports)

Exit code: 0 when every selected check passed (not-implemented extensions do not fail a run), 1 otherwise, 2 for
usage errors.`;

export const CONFORMANCE_USAGE = `usage: ${CLI} conformance --base-url URL [--api-key KEY] [--management-key KEY] [--profile core|modelgate] [--runs N] [--seed S]
         [--model M] [--timeout-seconds T] [--time-limit-seconds L] [--admin-cli "COMMAND {usd}"]
         [--mid-stream-error-prompt TEXT] [--operation ID]... [--spec FILE|URL] [--json] [--junit FILE] [--quiet]

${CONFORMANCE_OPTIONS}`;

const runConformanceCommand: Command = async ({ args, io }) => {
  const { values } = parseOptions(args, {
    'base-url': { type: 'string' },
    'api-key': { type: 'string' },
    'management-key': { type: 'string' },
    runs: { type: 'string' },
    seed: { type: 'string' },
    model: { type: 'string' },
    'timeout-seconds': { type: 'string' },
    'time-limit-seconds': { type: 'string' },
    'admin-cli': { type: 'string' },
    'mid-stream-error-prompt': { type: 'string' },
    profile: { type: 'string' },
    junit: { type: 'string' },
    operation: { type: 'string', multiple: true },
    spec: { type: 'string' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean' },
    help: { type: 'boolean' },
  });
  if (values.help) {
    io.out(CONFORMANCE_USAGE);
    return 0;
  }
  const baseUrl = values['base-url'];
  if (!baseUrl || !/^https?:\/\//.test(baseUrl))
    throw new UsageError(`--base-url must be an http(s) URL, e.g. http://127.0.0.1:8080/api/v1`);
  const apiKey = values['api-key'] ?? process.env.MODELGATE_API_KEY;
  if (!apiKey) throw new UsageError('--api-key or MODELGATE_API_KEY is required');
  const managementKey = values['management-key'] ?? (process.env.MODELGATE_MANAGEMENT_KEY || undefined);
  const profile = values.profile ?? 'modelgate';
  if (profile !== 'core' && profile !== 'modelgate')
    throw new UsageError(`--profile must be core or modelgate, got "${profile}"`);
  // Loaded on demand: fast-check and Ajv are not needed by `serve` and the other commands.
  const { runConformance } = await import('../conformance/runner.js');
  const { loadDocument } = await import('../conformance/openapi-document.js');
  const { formatReport } = await import('../conformance/report.js');
  const report = await runConformance({
    baseUrl,
    apiKey,
    managementKey,
    profile,
    runs: whole(values.runs, 'runs', 1),
    seed: whole(values.seed, 'seed', 0),
    model: values.model,
    requestTimeoutMs: seconds(values['timeout-seconds'], 'timeout-seconds'),
    timeLimitMs: seconds(values['time-limit-seconds'], 'time-limit-seconds'),
    addCredits: values['admin-cli'] ? adminHook(values['admin-cli']) : undefined,
    midStreamErrorPrompt: values['mid-stream-error-prompt'],
    operations: values.operation,
    document: values.spec ? await loadDocument(values.spec) : undefined,
    // Under --json stderr carries nothing but an error object (src/cli/cli-errors.ts): no progress lines.
    log: values.quiet || values.json ? undefined : (line) => io.err(`conformance: ${line}`),
  });
  io.out(values.json ? JSON.stringify(report, null, 2) : formatReport(report));
  if (values.junit) {
    const { junitReport } = await import('../conformance/junit-report.js');
    await writeFile(values.junit, junitReport(report));
  }
  return report.ok ? 0 : 1;
};

function whole(value: string | undefined, name: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(`--${name} must be a whole number ≥ ${min}, got "${value}"`);
  return Number(value);
}

function seconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`--${name} must be a positive number of seconds, got "${value}"`);
  return n * 1000;
}

export const conformanceCommand: CommandDefinition = {
  name: 'conformance',
  usage: [
    [
      'conformance --base-url URL [--api-key KEY] [--management-key KEY] [--profile core|modelgate] [--model M] [--json] [--junit FILE] ...',
      'property-based conformance run against a deployment',
    ],
  ],
  details: CONFORMANCE_OPTIONS,
  run: runConformanceCommand,
};

/** `{usd}` in the command is replaced by the amount (also in $MODELGATE_CONFORMANCE_USD); without it, appended. */
export function adminHook(template: string): (usd: number) => Promise<void> {
  return (usd) => {
    const amount = usd.toFixed(9).replace(/0+$/, '').replace(/\.$/, '');
    const command = template.includes('{usd}') ? template.replaceAll('{usd}', amount) : `${template} ${amount}`;
    return new Promise((resolve, reject) => {
      execFile(
        '/bin/sh',
        ['-c', command],
        { env: { ...process.env, MODELGATE_CONFORMANCE_USD: amount }, timeout: 60_000 },
        (err, _stdout, stderr) => {
          if (err) reject(new Error(`--admin-cli command failed (${command}): ${stderr.trim() || err.message}`));
          else resolve();
        },
      );
    });
  };
}
