// The report as JUnit XML (`--junit FILE`), the format CI systems (GitLab, Jenkins, GitHub test reporters) show:
// one <testsuite> per check, one <testcase> per target; a failure carries its message, the counterexample and the
// curl line; skipped and not-implemented targets are <skipped/> with the reason.
import type { CheckResult, ConformanceReport } from './report.js';
import { CHECK_NAMES } from './response-checks.js';

export function junitReport(report: ConformanceReport): string {
  const count = (results: CheckResult[], outcome: (r: CheckResult) => boolean) => results.filter(outcome).length;
  const failed = (r: CheckResult) => r.outcome === 'failed';
  const skipped = (r: CheckResult) => r.outcome === 'skipped' || r.outcome === 'not_implemented';
  const suites = CHECK_NAMES.flatMap((check) => {
    const results = report.results.filter((r) => r.check === check);
    if (results.length === 0) return [];
    return [
      `  <testsuite name="${attr(check)}" tests="${results.length}" failures="${count(results, failed)}" errors="0" skipped="${count(results, skipped)}">`,
      ...results.map((r) => testCase(check, r)),
      '  </testsuite>',
    ];
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attr(`modelgate conformance: ${report.spec.title} ${report.spec.version} at ${report.baseUrl}`)}" tests="${report.results.length}" failures="${count(report.results, failed)}" errors="0" skipped="${count(report.results, skipped)}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    '  <properties>',
    ...Object.entries({
      baseUrl: report.baseUrl,
      profile: report.profile ?? '',
      seed: String(report.seed),
      runs: String(report.runs),
      model: report.model ?? '',
    }).map(([name, value]) => `    <property name="${name}" value="${attr(value)}"/>`),
    '  </properties>',
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function testCase(check: string, r: CheckResult): string {
  const open = `    <testcase classname="conformance.${attr(check)}" name="${attr(r.target)}">`;
  if (r.outcome === 'passed') return `${open}</testcase>`;
  if (r.outcome === 'skipped' || r.outcome === 'not_implemented') {
    const why =
      r.outcome === 'not_implemented' ? `not implemented${r.note ? `: ${r.note}` : ''}` : (r.note ?? 'skipped');
    return `${open}<skipped message="${attr(why)}"/></testcase>`;
  }
  const c = r.counterexample;
  const message = c?.message ?? r.note ?? 'failed';
  const details = c
    ? [
        message,
        ...(c.steps ? ['steps:', ...c.steps.map((s, i) => `  ${i + 1}. ${s}`)] : []),
        `input: ${c.description}`,
        `response: ${c.status ?? 'none'} ${c.contentType ?? ''}${c.requestId ? ` (x-request-id ${c.requestId})` : ''}`,
        c.responseExcerpt,
        'reproduce:',
        c.curl,
      ].join('\n')
    : message;
  return `${open}\n      <failure message="${attr(message)}" type="${attr(check)}">${text(details)}</failure>\n    </testcase>`;
}

// XML 1.0 forbids most control characters even escaped; response excerpts may contain them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters XML forbids is this pattern's job.
const INVALID_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
// With the u flag a surrogate pair is one code point, so this matches only unpaired halves (not encodable in UTF-8).
const LONE_SURROGATE = /[\ud800-\udfff]/gu;

function text(value: string): string {
  return value
    .replace(INVALID_XML, '\ufffd')
    .replace(LONE_SURROGATE, '\ufffd')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
}

function attr(value: string): string {
  return text(value).replaceAll('"', '&quot;').replaceAll('\n', '&#10;');
}
