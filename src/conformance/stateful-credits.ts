// Model-based test of credits: add (through a hook — adding credits is not an HTTP operation) → spend → 402.
// The model is the account's granted and used totals in USD. After every step the deployment must agree with it:
// grants show up exactly, a completion's reported cost is what `total_usage` grows by, usage never exceeds
// credits (no overdraft: these 16-token requests cost less than their admission bound, and only a cost beyond it may
// become debt), a paid request with nothing left is refused with 402, and a 402 is never given when the account
// could obviously pay. Free models must work at any balance and cost nothing.
import fc from 'fast-check';
import { createSseParser } from '../providers/sse/parse-sse.js';
import type { Exchange } from './http-exchange.js';
import type { StatefulClient } from './stateful-client.js';
import type { Credential } from './request-spec.js';
import type { SequenceEnvironment } from './stateful-environment.js';
import type { CheckResult } from './report.js';

type Schemas = import('../../generated/openapi-types.js').components['schemas'];

export interface CreditsHooks {
  /** Adds `usd` to the account of the key under test (test helper, or an admin command). */
  addCredits(usd: number): Promise<void>;
  /** A paid model the deployment serves. */
  model: string;
  /** A free model, if the deployment serves one. */
  freeModel?: string;
}

interface CreditsModel {
  credits: number;
  usage: number;
}

interface CreditsReal {
  client: StatefulClient;
  main: Credential;
  hooks: CreditsHooks;
}

type CreditsCommand = fc.AsyncCommand<CreditsModel, CreditsReal>;

export const CREDITS_OPERATIONS = ['getCredits', 'createChatCompletion'];
export const CREDITS_TARGET = 'credits (add → spend → 402)';
/** Money is exact to the nano-dollar; USD doubles summed over a sequence stay far inside this. */
const EPSILON = 1e-8;
/** Far above the upper bound of a 16-token request on any model: a 402 with this much left is wrong. */
const PLENTY_USD = 1;
const AMOUNTS = [0.00005, 0.0002, 0.001, 0.01];

async function readCredits(r: CreditsReal, step: string): Promise<{ credits: number; usage: number; ex: Exchange }> {
  const ex = await r.client.call('getCredits', r.main, {}, step);
  r.client.expect(ex.status === 200, ex, `GET /credits answered ${ex.status}, expected 200`);
  const { data } = r.client.json<Schemas['Credits']>(ex);
  return { credits: data.total_credits, usage: data.total_usage, ex };
}

class AddCredits implements CreditsCommand {
  constructor(readonly usd: number) {}
  check = () => true;
  async run(m: CreditsModel, r: CreditsReal): Promise<void> {
    r.client.steps.push(`add ${this.usd} USD (hook)`);
    await r.hooks.addCredits(this.usd);
    m.credits += this.usd;
    const seen = await readCredits(r, 'read credits');
    r.client.expect(
      Math.abs(seen.credits - m.credits) < EPSILON,
      seen.ex,
      `total_credits is ${seen.credits}, expected ${m.credits} after adding ${this.usd}`,
    );
    r.client.expect(
      Math.abs(seen.usage - m.usage) < EPSILON,
      seen.ex,
      `total_usage changed to ${seen.usage} without any spending (expected ${m.usage})`,
    );
  }
  toString = () => `add ${this.usd} USD`;
}

class Spend implements CreditsCommand {
  constructor(
    readonly stream: boolean,
    readonly free: boolean,
  ) {}
  check = () => true;
  async run(m: CreditsModel, r: CreditsReal): Promise<void> {
    const model = this.free ? r.hooks.freeModel! : r.hooks.model;
    const remaining = m.credits - m.usage;
    const body = { model, messages: [{ role: 'user', content: 'Say hi' }], max_tokens: 16, stream: this.stream };
    const ex = await r.client.call(
      'createChatCompletion',
      r.main,
      { json: body },
      `${this.toString()} with ${remaining.toFixed(9)} USD left`,
    );
    if (ex.status === 429) return; // rate limited: documented, and no money moves
    if (ex.status === 402) {
      r.client.expect(!this.free, ex, 'a free model was refused with 402');
      r.client.expect(remaining < PLENTY_USD, ex, `402 although ${remaining} USD is left`);
      const metadata = r.client.json<Schemas['ErrorResponse']>(ex).error?.metadata ?? {};
      if (typeof metadata.available === 'number') {
        r.client.expect(
          Math.abs(metadata.available - remaining) < EPSILON,
          ex,
          `402 says ${metadata.available} USD is available, the account has ${remaining}`,
        );
      }
      if (typeof metadata.required === 'number' && typeof metadata.available === 'number') {
        r.client.expect(
          metadata.required > metadata.available,
          ex,
          `402 although required ${metadata.required} ≤ available ${metadata.available}`,
        );
      }
      return;
    }
    r.client.expect(ex.status === 200, ex, `a completion answered ${ex.status}, expected 200 or 402`);
    r.client.expect(
      this.free || remaining > 0,
      ex,
      `a paid completion was served with ${remaining} USD left; expected 402`,
    );
    const cost = costOf(ex);
    const seen = await readCredits(r, 'read credits');
    if (this.free) r.client.expect(!cost, ex, `a free model reported cost ${cost}`);
    const expected = m.usage + (this.free ? 0 : (cost ?? 0));
    if (cost !== undefined || this.free) {
      r.client.expect(
        Math.abs(seen.usage - expected) < EPSILON,
        seen.ex,
        `total_usage is ${seen.usage}, expected ${expected} (reported cost ${cost ?? 0})`,
      );
    } else {
      r.client.expect(seen.usage >= m.usage, seen.ex, `total_usage went down from ${m.usage} to ${seen.usage}`);
    }
    r.client.expect(
      seen.usage <= seen.credits + EPSILON,
      seen.ex,
      `overdrawn: total_usage ${seen.usage} > total_credits ${seen.credits}`,
    );
    m.usage = seen.usage;
  }
  toString = () => `${this.stream ? 'stream' : 'request'} a ${this.free ? 'free' : 'paid'} completion`;
}

/** `usage.cost` of a JSON completion, or of the streamed chunk that carries usage. */
function costOf(ex: Exchange): number | undefined {
  if ((ex.headers['content-type'] ?? '').includes('text/event-stream')) {
    const parser = createSseParser();
    let cost: number | undefined;
    for (const event of [...parser.push(ex.body), ...parser.end()]) {
      if (event.data === '[DONE]') continue;
      const usage = JSON.parse(event.data).usage;
      if (typeof usage?.cost === 'number') cost = usage.cost;
    }
    return cost;
  }
  const cost = JSON.parse(ex.body).usage?.cost;
  return typeof cost === 'number' ? cost : undefined;
}

export async function runCreditSequences(env: SequenceEnvironment, hooks: CreditsHooks): Promise<CheckResult[]> {
  const commands: fc.Arbitrary<CreditsCommand>[] = [
    fc.constantFrom(...AMOUNTS).map((usd): CreditsCommand => new AddCredits(usd)),
    fc.boolean().map((stream): CreditsCommand => new Spend(stream, false)),
  ];
  if (hooks.freeModel) commands.push(fc.boolean().map((stream): CreditsCommand => new Spend(stream, true)));
  const runSequence = async (cmds: Iterable<CreditsCommand>) => {
    const real: CreditsReal = { client: env.client('stateful_credits'), main: env.main, hooks };
    const start = await readCredits(real, 'read credits');
    await fc.asyncModelRun(() => ({ model: { credits: start.credits, usage: start.usage }, real }), cmds);
  };
  // Spend with what is left, add a little, spend until refused: the path the spec describes.
  const canonical = [
    new Spend(false, false),
    new AddCredits(0.0002),
    new Spend(false, false),
    new Spend(true, false),
    new Spend(false, false),
  ];
  return env.runSequences(
    CREDITS_TARGET,
    ['stateful_credits'],
    fc.commands(commands, { maxCommands: env.maxCommands }),
    runSequence,
    canonical,
  );
}
