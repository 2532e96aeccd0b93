// `unsupported_method` (as Schemathesis checks it): a method the document does not define for a path must be
// answered 405 with an `Allow` header naming the methods the path does define (RFC 9110 §15.5.6). Probed once per
// method and path, with a valid credential so servers that authenticate before routing still show their 405.
import type { OpenApiDocument, Operation } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import type { Credential } from './request-spec.js';
import { ConformanceFailure, toCounterexample } from './counterexample.js';
import { PROBE_SEGMENT } from './route-probes.js';
import type { CheckResult } from './report.js';

/** HEAD and OPTIONS stay out: servers answer them for every GET route and for CORS by design. */
const PROBED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export async function checkUnsupportedMethods(
  doc: OpenApiDocument,
  operations: Operation[],
  probe: { sender: Sender; main: Credential; secrets: Iterable<string> },
): Promise<CheckResult[]> {
  const { sender, main, secrets } = probe;
  const results: CheckResult[] = [];
  for (const path of [...new Set(operations.map((op) => op.path))]) {
    const defined = doc.operations.filter((op) => op.path === path);
    // Allow must name the selected operations' methods (a server of the core profile need not have the
    // extensions' methods on a shared path); a method the document defines at all is never probed.
    const allowed = operations.filter((op) => op.path === path).map((op) => op.method);
    const concrete = path.replace(/\{[^}]+\}/g, PROBE_SEGMENT);
    const probes = PROBED_METHODS.filter((m) => !defined.some((op) => op.method === m));
    const target = `${probes.join(', ')} ${path}`;
    let failure: CheckResult | undefined;
    for (const method of probes) {
      const ex = await sender.send({
        operationId: defined[0].operationId,
        method,
        path: concrete,
        query: [],
        headers: {},
        authorization: defined.some((op) => op.secured) ? main : undefined,
        description: `${method} is not defined for ${path} (defined: ${allowed.join(', ')})`,
      });
      const problem = allowProblem({ status: ex.status, allow: ex.headers.allow, error: ex.error }, method, allowed);
      if (problem) {
        const error = new ConformanceFailure(ex, [{ check: 'unsupported_method', message: problem }]);
        failure = {
          check: 'unsupported_method',
          target,
          outcome: 'failed',
          runs: probes.indexOf(method) + 1,
          counterexample: toCounterexample(error, 'unsupported_method', sender.baseUrl, secrets),
        };
        break;
      }
    }
    if (probes.length > 0)
      results.push(failure ?? { check: 'unsupported_method', target, outcome: 'passed', runs: probes.length });
  }
  return results;
}

export function allowProblem(
  answer: { status: number | undefined; allow: string | undefined; error?: string },
  method: string,
  allowed: string[],
): string | undefined {
  const { status, allow, error } = answer;
  if (status === undefined) return `no response: ${error ?? 'unknown error'}`;
  if (status !== 405) return `${method} answered ${status}, expected 405 Method Not Allowed`;
  if (allow === undefined) return '405 without an Allow header';
  const listed = allow
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  const missing = allowed.filter((m) => !listed.includes(m));
  if (missing.length > 0) return `Allow: ${allow} lacks ${missing.join(', ')}`;
  if (listed.includes(method)) return `Allow: ${allow} lists ${method}, which was just refused`;
  return undefined;
}
