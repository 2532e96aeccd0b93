// The W3C Trace Context checks behind forwarding the client's trace upstream when the gateway does not trace, and
// the GenAI provider names of spans.
import { afterEach, describe, expect, it } from 'vitest';
import { clientTraceHeaders, validTraceparent, validTracestate } from '../../src/observability/client-trace-context.js';
import { genAiProviderName } from '../../src/observability/gen-ai-provider-name.js';
import { setActiveTracer } from '../../src/observability/tracer.js';
import { recordedSpans } from '../helpers/recorded-spans.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

afterEach(() => setActiveTracer(undefined));

describe('validTraceparent', () => {
  it.each([
    TRACEPARENT,
    '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00',
    '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09',
    '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-anything-after',
  ])('accepts %s', (value) => expect(validTraceparent(value)).toBe(true));

  it.each([
    '',
    `${TRACEPARENT}, ${TRACEPARENT}`,
    `${TRACEPARENT}-`,
    '01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x',
    'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b-01',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1',
    '00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01',
    '00-00000000000000000000000000000000-00f067aa0ba902b7-01',
    '00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01',
    ' 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  ])('rejects %j', (value) => expect(validTraceparent(value)).toBe(false));
});

describe('validTracestate', () => {
  it.each([
    'rojo=00f067aa0ba902b7',
    'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    ' congo=t61rcWkgMzE ,\trojo=00f067aa0ba902b7 ,, ',
    'tenant1@vendor=x',
    'a*b/c-d_e=v w',
    `k=${'v'.repeat(256)}`,
    Array.from({ length: 32 }, (_, i) => `k${i}=v`).join(','),
    '',
  ])('accepts %j', (value) => expect(validTracestate(value)).toBe(true));

  it.each([
    'Upper=x',
    '=x',
    'k',
    'k=',
    'k=a=b',
    'k=a\tb',
    'k=\u00e9',
    'a=1,a=2',
    '1abc=x',
    'tenant@Vendor=x',
    `k=${'v'.repeat(257)}`,
    Array.from({ length: 33 }, (_, i) => `k${i}=v`).join(','),
  ])('rejects %j', (value) => expect(validTracestate(value)).toBe(false));
});

describe('clientTraceHeaders', () => {
  it('gives a valid traceparent and tracestate as they came', () => {
    expect(clientTraceHeaders({ traceparent: TRACEPARENT, tracestate: 'a=1', authorization: 'Bearer secret' })).toEqual(
      { traceparent: TRACEPARENT, tracestate: 'a=1' },
    );
  });

  it('drops a bad tracestate alone, and everything without a good traceparent', () => {
    expect(clientTraceHeaders({ traceparent: TRACEPARENT, tracestate: 'A=1' })).toEqual({ traceparent: TRACEPARENT });
    expect(clientTraceHeaders({ traceparent: 'nope', tracestate: 'a=1' })).toBeUndefined();
    expect(clientTraceHeaders({ tracestate: 'a=1' })).toBeUndefined();
  });

  it('gives nothing when the gateway traces itself (its attempt span goes upstream instead)', () => {
    setActiveTracer(recordedSpans().tracer);
    expect(clientTraceHeaders({ traceparent: TRACEPARENT })).toBeUndefined();
  });
});

describe('genAiProviderName', () => {
  it("uses the semantic conventions' well-known names, else the catalog id", () => {
    expect(
      ['openai', 'anthropic', 'google', 'deepseek', 'mistral', 'x-ai', 'groq', 'openrouter', 'constructor'].map(
        genAiProviderName,
      ),
    ).toEqual([
      'openai',
      'anthropic',
      'gcp.gemini',
      'deepseek',
      'mistral_ai',
      'x_ai',
      'groq',
      'openrouter',
      'constructor',
    ]);
  });
});
