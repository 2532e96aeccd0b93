// What the guardrails' input stage costs per request, on the small request and the coding-agent-sized one
// (bench/lib/agent-requests.ts: ~400 KB, 240 messages, 25 tools) in each door's protocol, with one email in the last
// message so a redaction and the byte splice run. "0" is the request parsed as the body reader does with no guardrail
// (the stage is skipped); "5" adds five input guardrails (email redact, phone flag, credit_card block, iban redact,
// secret redact) over the parsed body and the bytes. CPU µs per request, median of alternated rounds with the 95%
// interval of the median.
// Usage: npx tsx bench/guardrails-compare.ts [rounds, default 15] [requests per round: small default 2000, agent 20]
import { laneBody, type LaneDoor } from './lib/agent-requests.js';
import { median, medianInterval } from './lib/stats.js';
import { guardRequest } from '../src/guardrails/guard-request.js';
import type { Guardrail } from '../src/core/guardrail.js';
import { NO_GUARDRAIL_SETTINGS } from '../src/guardrails/guardrail-settings.js';

const FIVE: Guardrail[] = [
  { name: 'emails', stage: 'input', action: 'redact', detector: 'email' },
  { name: 'phones', stage: 'input', action: 'flag', detector: 'phone' },
  { name: 'cards', stage: 'input', action: 'block', detector: 'credit_card' },
  { name: 'ibans', stage: 'input', action: 'redact', detector: 'iban' },
  { name: 'secrets', stage: 'input', action: 'redact', detector: 'secret' },
];

type Variant = '0' | '5';

function run(guardrails: Guardrail[], text: string): void {
  const raw = Buffer.from(text);
  const body = JSON.parse(text) as Record<string, unknown>;
  if (guardrails.length === 0) return;
  guardRequest(guardrails, { body, raw }, NO_GUARDRAIL_SETTINGS);
}

/** CPU µs per request over `requests` requests. */
function measure(guardrails: Guardrail[], text: string, requests: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < requests; i++) run(guardrails, text);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / requests;
}

/** The door's body with an email in the text of its last message (wherever the door keeps it). */
function withEmail(text: string): string {
  const at =
    text.lastIndexOf('"text":"') >= 0 ? text.lastIndexOf('"text":"') + 8 : text.lastIndexOf('"content":"') + 11;
  return `${text.slice(0, at)}Reply to alice.smith@example.com. ${text.slice(at)}`;
}

function main(): void {
  const rounds = Number(process.argv[2] ?? 15);
  const perRound = { small: Number(process.argv[3] ?? 2000), agent: Number(process.argv[4] ?? 20) };
  console.log(
    `Guardrails input stage, median of ${rounds} alternated rounds (CPU µs per request, parse included, 95% interval)`,
  );
  console.log('| door | request | size | 0 guardrails | 5 guardrails | added |\n|---|---|---|---|---|---|');
  for (const door of ['chat', 'messages', 'responses'] as LaneDoor[]) {
    for (const size of ['small', 'agent'] as const) {
      const text = withEmail(laneBody(door, size, 'openai/gpt-5.4'));
      const requests = perRound[size];
      const variants: Record<Variant, Guardrail[]> = { '0': [], '5': FIVE };
      for (const guardrails of Object.values(variants)) measure(guardrails, text, requests);
      const timings: Record<Variant, number[]> = { '0': [], '5': [] };
      for (let round = 0; round < rounds; round++) {
        const order: Variant[] = round % 2 === 0 ? ['0', '5'] : ['5', '0'];
        for (const variant of order) timings[variant].push(measure(variants[variant], text, requests));
      }
      const cell = (samples: number[]) => {
        const [low, high] = medianInterval(samples) ?? [NaN, NaN];
        return `${median(samples)!.toFixed(1)} (${low.toFixed(1)}–${high.toFixed(1)})`;
      };
      const added = timings['5'].map((five, i) => five - timings['0'][i]!);
      console.log(
        `| ${door} | ${size} | ${(text.length / 1000).toFixed(1)} KB | ${cell(timings['0'])} | ${cell(timings['5'])} | ${cell(added)} |`,
      );
    }
  }
}

main();
