// Modelgate's probe variants beside its plain request at c=1: the model with three endpoints (routing step) beside
// the single-endpoint chat request, and the streaming request through the Messages and Responses doors beside the
// chat stream. All were probed in the same interleaved slices, so their paired figures share the mock's rounds.
import { VARIANT_LABELS, VARIANT_SCENARIO, type ProbeVariant } from './plan.js';
import type { BenchResults } from './results.js';
import { difference, pairedAdded, probeCell } from './aggregate.js';

function table(headers: string[], rows: (string | number | undefined)[][]): string {
  const line = (cells: (string | number | undefined)[]) =>
    `| ${cells.map((c) => (c === undefined ? '—' : String(c))).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

const ms = (v: number | undefined) => (v === undefined ? undefined : v.toFixed(3));
const signed = (v: number | undefined) => (v === undefined ? undefined : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

export function variantsSection(results: BenchResults): string | undefined {
  const probed = (variant: ProbeVariant) => (results.variantProbes ?? []).some((p) => p.variant === variant);
  const variants = (Object.keys(VARIANT_LABELS) as ProbeVariant[]).filter(probed);
  if (variants.length === 0) return undefined;
  const out = ['## Routing step and front doors at c=1 (Modelgate, sequential probe, ms)', ''];
  const requests = (p: { requests: number; failures: number } | undefined) =>
    p ? `${p.requests}${p.failures ? ` ⚠ ${p.failures} failed` : ''}` : undefined;
  const json = variants.filter((v) => VARIANT_SCENARIO[v] === 'json');
  if (json.length > 0) {
    const mock = probeCell(results, 'mock', 'json');
    const row = (label: string, variant?: ProbeVariant) => {
      const p = probeCell(results, 'modelgate', 'json', variant);
      return [
        label,
        ms(p?.p50),
        ms(p?.p99),
        signed(difference(p?.p50, mock?.p50)),
        signed(pairedAdded(results, 'modelgate', 'json', 'p50', variant)?.value),
        signed(pairedAdded(results, 'modelgate', 'json', 'p99', variant)?.value),
        requests(p),
      ];
    };
    out.push(
      'The non-streaming request to `openai/gpt-test` (one endpoint) beside the same request to `alpha/routed`, a model with three endpoints on ' +
        'the mock (bench catalog), sent with `provider.order` (the most expensive endpoint first) and a fallback in `models[]`: the routing step plans over ' +
        "both models' candidates; the first one answers. Same targets as the single-endpoint request.",
      '',
    );
    out.push(
      table(
        ['request', 'p50', 'p99', 'added p50', 'added p50, paired', 'added p99, paired', 'requests'],
        [row('Modelgate, one endpoint'), ...json.map((v) => row(VARIANT_LABELS[v], v))],
      ),
      '',
    );
  }
  const streams = variants.filter((v) => VARIANT_SCENARIO[v] === 'stream');
  if (streams.length > 0) {
    const mock = probeCell(results, 'mock', 'stream');
    const row = (label: string, variant?: ProbeVariant) => {
      const p = probeCell(results, 'modelgate', 'stream', variant);
      return [
        label,
        ms(p?.firstChunkP50),
        ms(p?.firstChunkP99),
        signed(difference(p?.firstChunkP50, mock?.firstChunkP50)),
        signed(pairedAdded(results, 'modelgate', 'stream', 'firstChunkP50', variant)?.value),
        ms(p?.chunkDelayP99),
        signed(pairedAdded(results, 'modelgate', 'stream', 'chunkDelayP99', variant)?.value),
        requests(p),
      ];
    };
    out.push(
      'The paced, stamped streaming request through each door: time to the first content event (chat: a chunk with `delta.content`; Messages: ' +
        "`content_block_delta`; Responses: `response.output_text.delta`), and the delay of later content events from the mock's write. Same targets as " +
        "the chat stream's first chunk.",
      '',
    );
    out.push(
      table(
        [
          'request',
          'first content event p50',
          'p99',
          'added p50',
          'added p50, paired',
          'later events delay p99',
          'added p99, paired',
          'requests',
        ],
        [row('Modelgate, POST /chat/completions'), ...streams.map((v) => row(VARIANT_LABELS[v], v))],
      ),
    );
  }
  return out.join('\n');
}
