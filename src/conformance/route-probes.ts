// Before any property runs: which selected operations the deployment implements. A route that answers 404 to a
// bare request (or 405: the path exists, the operation's method does not) is absent — an extension is then "not
// implemented" (reported, never an abort), a core operation fails `route_implemented`. Operations with path parameters
// may answer 404 for an unknown resource, so for them only the unauthenticated probe counts (routing comes before
// authentication, as in Modelgate).
import { describeOperation, type Operation } from './openapi-document.js';
import type { Exchange, Sender } from './http-exchange.js';
import { buildRequest, type Credential, type RequestSpec } from './request-spec.js';
import { profileOf } from './profiles.js';
import { ConformanceFailure, toCounterexample } from './counterexample.js';
import type { CheckResult } from './report.js';

/** Stands in for every path parameter of a probe: routes match it, no resource has it. */
export const PROBE_SEGMENT = 'conformance-probe';

export function probeRequest(op: Operation, credential: Credential | undefined, description: string): RequestSpec {
  const params = Object.fromEntries(
    op.parameters.filter((p) => p.in === 'path').map((p) => [`path:${p.name}`, PROBE_SEGMENT]),
  );
  return buildRequest(op, { params }, { credential, description });
}

export interface RouteProbes {
  results: CheckResult[];
  implemented: Operation[];
}

export async function probeRoutes(
  operations: Operation[],
  sender: Sender,
  main: Credential,
  secrets: Iterable<string>,
): Promise<RouteProbes> {
  const results: CheckResult[] = [];
  const implemented: Operation[] = [];
  for (const op of operations) {
    const absent = await answers404(op, sender, main);
    const target = describeOperation(op);
    if (!absent) {
      implemented.push(op);
      results.push({ check: 'route_implemented', target, outcome: 'passed', runs: 1 });
    } else if (profileOf(op.operationId) === 'core') {
      const failure = new ConformanceFailure(absent, [
        {
          check: 'route_implemented',
          message: `${op.method} ${op.path} answered ${absent.status}: the core operation ${op.operationId} is missing`,
        },
      ]);
      results.push({
        check: 'route_implemented',
        target,
        outcome: 'failed',
        runs: 1,
        counterexample: toCounterexample(failure, 'route_implemented', sender.baseUrl, secrets),
      });
    } else {
      results.push({
        check: 'route_implemented',
        target,
        outcome: 'not_implemented',
        runs: 1,
        note: `extension: ${op.method} ${op.path} answered ${absent.status}`,
      });
    }
  }
  return { results, implemented };
}

/** The 404 (or 405) exchange that shows the route is absent, or nothing when it is there. */
async function answers404(op: Operation, sender: Sender, main: Credential): Promise<Exchange | undefined> {
  const hasPathParams = op.parameters.some((p) => p.in === 'path');
  if (op.secured) {
    const anonymous = await sender.send(probeRequest(op, undefined, 'route probe without credentials'));
    if (absentStatus(anonymous.status)) return anonymous;
    // 401 first tells nothing when the server authenticates before routing; a bare authenticated request does.
    if (anonymous.status !== 401 || hasPathParams) return undefined;
  }
  if (hasPathParams) return undefined;
  const authenticated = await sender.send(
    probeRequest(op, op.secured ? main : undefined, 'route probe (no body, no parameters)'),
  );
  return absentStatus(authenticated.status) ? authenticated : undefined;
}

const absentStatus = (status: number | undefined) => status === 404 || status === 405;
