// The conformance report: one result per check and target (operation + input kind, or a stateful sequence), and
// its text form — a summary line per check, then every failure with its shrunk counterexample and a curl line.
import { CHECK_NAMES, type CheckName } from './response-checks.js';
import type { Counterexample } from './counterexample.js';

/** `not_implemented`: an extension operation whose route answers 404 — reported, not a failure. */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not_implemented';

export interface CheckResult {
  check: CheckName;
  /** `POST /chat/completions (createChatCompletion) [invalid inputs]`, or a stateful sequence name. */
  target: string;
  outcome: Outcome;
  /** Generated inputs (or command sequences) that were run. */
  runs: number;
  note?: string;
  counterexample?: Counterexample;
}

export interface ConformanceReport {
  baseUrl: string;
  spec: { title: string; version: string };
  /** The profile run (profiles.ts); absent in reports of older builds. */
  profile?: string;
  seed: number;
  runs: number;
  model?: string;
  durationMs: number;
  results: CheckResult[];
  /** Requests sent in total. */
  requests: number;
  ok: boolean;
}

export function isOk(results: CheckResult[]): boolean {
  return results.every((r) => r.outcome !== 'failed');
}

export function formatReport(report: ConformanceReport): string {
  const lines: string[] = [];
  lines.push(
    `Conformance report: ${report.spec.title} ${report.spec.version} at ${report.baseUrl}${report.profile ? `, profile ${report.profile}` : ''}`,
  );
  lines.push(
    `seed ${report.seed}, up to ${report.runs} runs per property, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s` +
      (report.model ? `, model ${report.model}` : ''),
  );
  lines.push('');
  const byCheck = new Map<CheckName, CheckResult[]>();
  for (const result of report.results) byCheck.set(result.check, [...(byCheck.get(result.check) ?? []), result]);
  const width = Math.max(...CHECK_NAMES.map((c) => c.length)) + 2;
  const said = new Set<string>();
  for (const check of CHECK_NAMES) {
    const results = byCheck.get(check);
    if (!results) continue;
    const failed = results.filter((r) => r.outcome === 'failed');
    const ran = results.filter((r) => r.outcome === 'passed' || r.outcome === 'failed');
    const runs = ran.reduce((sum, r) => sum + r.runs, 0);
    const status = failed.length > 0 ? 'FAILED' : ran.length === 0 ? 'SKIPPED' : 'passed';
    const detail =
      failed.length > 0
        ? `${failed.length} of ${results.length} targets failed`
        : ran.length > 0
          ? `${ran.length} targets, ${runs} runs`
          : '';
    lines.push(`${check.padEnd(width)}${status.padEnd(9)}${detail}`.trimEnd());
    for (const skipped of results.filter((r) => r.outcome === 'skipped')) {
      // A target skipped for one reason is skipped under every check: say it once, under the first.
      const line = `skipped: ${skipped.target}: ${skipped.note ?? ''}`;
      if (!said.has(line)) lines.push(`${' '.repeat(width)}${line}`);
      said.add(line);
    }
    for (const absent of results.filter((r) => r.outcome === 'not_implemented'))
      lines.push(`${' '.repeat(width)}not implemented: ${absent.target}`);
  }
  const failures = report.results.filter((r) => r.outcome === 'failed');
  if (failures.length > 0) {
    lines.push('', 'Failures (shrunk counterexamples):');
    for (const f of failures) lines.push('', ...formatFailure(f));
  }
  lines.push('');
  const checks = new Set(
    report.results.filter((r) => r.outcome === 'passed' || r.outcome === 'failed').map((r) => r.check),
  );
  const failedChecks = new Set(failures.map((r) => r.check));
  const absent = report.results.filter((r) => r.outcome === 'not_implemented').length;
  if (absent > 0)
    lines.push(`${absent} extension operation(s) not implemented (their routes answer 404): not tested, not failed.`);
  lines.push(
    report.ok
      ? `OK: ${checks.size} checks passed.`
      : `FAILED: ${failedChecks.size} of ${checks.size} checks failed (${[...failedChecks].join(', ')}). Replay with --seed ${report.seed}.`,
  );
  return lines.join('\n');
}

function formatFailure(result: CheckResult): string[] {
  const c = result.counterexample;
  const out = [`✗ ${result.check} — ${result.target}`];
  if (!c) return [...out, `    ${result.note ?? 'failed'}`];
  out.push(`    ${c.message}`);
  if (c.steps) out.push('    steps:', ...c.steps.map((s, i) => `      ${i + 1}. ${s}`));
  out.push(`    input: ${c.description}`);
  const head = c.status === undefined ? 'no response' : `${c.status}${c.contentType ? ` ${c.contentType}` : ''}`;
  out.push(`    response: ${head}${c.requestId ? ` (x-request-id ${c.requestId})` : ''}`);
  if (c.responseExcerpt)
    out.push(
      ...c.responseExcerpt
        .split('\n')
        .slice(0, 12)
        .map((l) => `      ${l}`),
    );
  out.push('    reproduce:', `      ${c.curl}`);
  return out;
}
