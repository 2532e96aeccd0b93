// The guardrails' detectors and redaction on plain strings: each finds what it should and not its look-alikes, the
// email finder stays linear on long runs of address characters, the JSON splice rewrites only changed strings, and a
// stream's hold-back window catches a match split across deltas.
import { describe, expect, it } from 'vitest';
import { checkText, GuardrailReport } from '../../src/guardrails/check-text.js';
import type { Guardrail } from '../../src/core/guardrail.js';
import { parseGuardrailPatterns, type GuardrailSettings } from '../../src/guardrails/guardrail-settings.js';
import { HOLD_BACK_CHARS, StreamTextGuard } from '../../src/guardrails/guard-output.js';
import { spliceJsonStrings } from '../../src/guardrails/json-string-splice.js';
import { guardRequest } from '../../src/guardrails/guard-request.js';
import { parseGuardrails } from '../../src/guardrails/parse-guardrails.js';
import {
  findCreditCards,
  findEmails,
  findIbans,
  findPhones,
  findSecrets,
  luhnValid,
} from '../../src/guardrails/text-matches.js';
import type { StreamEvent } from '../../src/core/generation.js';

const texts = (text: string, spans: { start: number; end: number }[]) => spans.map((s) => text.slice(s.start, s.end));
const settings: GuardrailSettings = { patterns: parseGuardrailPatterns('{"ticket_id":"TICKET-\\\\d+"}') };
const redact = (detector: Guardrail['detector'], extra: Partial<Guardrail> = {}): Guardrail => ({
  name: detector,
  stage: 'input',
  action: 'redact',
  detector,
  ...extra,
});

describe('detectors', () => {
  it('emails: addresses with dots, plus and subdomains; not a bare @ or a handle', () => {
    const text = 'Mail a.b+c@mail.example.co.uk, x@y, @handle, or (bob@example.org).';
    expect(texts(text, findEmails(text))).toEqual(['a.b+c@mail.example.co.uk', 'bob@example.org']);
  });

  it('emails: linear on a long run of address characters without a domain', () => {
    const text = `${'a'.repeat(200_000)}@${'b'.repeat(200_000)}`;
    expect(findEmails(text)).toEqual([]);
  });

  it('phones: international numbers; national ones only with a region', () => {
    const text = 'Call +1 650 253 0000 or (650) 253-0001.';
    expect(texts(text, findPhones(text))).toEqual(['+1 650 253 0000']);
    expect(texts(text, findPhones(text, 'US'))).toEqual(['+1 650 253 0000', '(650) 253-0001']);
  });

  it('phones: placed back at their offset in a long text, neighbours taken once each', () => {
    const filler = 'lorem 12 ipsum 345 '.repeat(5000);
    const text = `${filler}ring +44 20 7946 0958,+1 650 253 0000 ${filler}`;
    expect(texts(text, findPhones(text))).toEqual(['+44 20 7946 0958', '+1 650 253 0000']);
  });

  it('credit cards: Luhn-valid numbers, grouped or not; not a failing check digit', () => {
    const text = 'Pay 4111 1111 1111 1111 or 5500-0000-0000-0004, not 4111 1111 1111 1112 or 12345.';
    expect(texts(text, findCreditCards(text))).toEqual(['4111 1111 1111 1111', '5500-0000-0000-0004']);
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('IBANs: valid ones, whole or grouped; not a wrong check digit', () => {
    const text = 'To DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432, not DE00370400440532013000.';
    expect(texts(text, findIbans(text))).toEqual(['DE89 3704 0044 0532 0130 00', 'GB82WEST12345698765432']);
  });

  it('secrets: provider and gateway key shapes; not a short sk- word', () => {
    const keys = [
      'sk-proj-abcdefghijklmnopqrstuvwxyz0123',
      'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
      'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234',
      'gsk_abcdefghijklmnopqrstuvwxyz',
      'xai-abcdefghijklmnopqrstuvwxyz',
      'mg-v1-abcdefghijklmnopqrstuvwxyz01',
    ];
    const text = `${keys.join(' and ')} but not sk-short`;
    expect(texts(text, findSecrets(text))).toEqual(keys);
  });
});

describe('checkText', () => {
  it('redacts with placeholders, reports names only, and a block or flag leaves the text', () => {
    const report = new GuardrailReport();
    const guardrails: Guardrail[] = [
      redact('email'),
      redact('regex', { name: 'tickets', pattern: 'ticket_id' }),
      { name: 'cards', stage: 'input', action: 'block', detector: 'credit_card' },
      { name: 'ibans', stage: 'input', action: 'flag', detector: 'iban' },
    ];
    const out = checkText(guardrails, 'x@example.com TICKET-7 4111111111111111 GB82WEST12345698765432', {
      settings,
      report,
    });
    expect(out).toBe('[EMAIL] [TICKET_ID] 4111111111111111 GB82WEST12345698765432');
    expect(report.fired).toEqual(['email', 'tickets', 'cards', 'ibans']);
    expect(report.blockedBy).toBe('cards');
  });
});

describe('parseGuardrails', () => {
  it('refuses an unknown detector, a regex naming no operator pattern, and a pattern on another detector', () => {
    const parse = (item: object) => () =>
      parseGuardrails([{ name: 'g', stage: 'input', action: 'redact', detector: 'email', ...item }], {
        field: 'data',
        settings,
      });
    expect(parse({ detector: 'ssn' })).toThrow(/detector/);
    expect(parse({ detector: 'regex', pattern: 'nope' })).toThrow(/not defined/);
    expect(parse({ pattern: 'ticket_id' })).toThrow(/regex detector only/);
    expect(parse({ detector: 'regex', pattern: 'ticket_id' })()).toEqual([
      { name: 'g', stage: 'input', action: 'redact', detector: 'regex', pattern: 'ticket_id' },
    ]);
  });
});

describe('spliceJsonStrings', () => {
  it('rewrites only the changed string values, keeping keys, escapes and spacing as they came', () => {
    const json = '{"model":"a@b.co", "messages":[{"role":"user","content":"caf\\u00e9 x@y.com"}],"n": 1.50}';
    const out = spliceJsonStrings(json, (member, value) =>
      member === 'model' ? undefined : value.replace('x@y.com', '[EMAIL]'),
    );
    expect(out).toBe('{"model":"a@b.co", "messages":[{"role":"user","content":"café [EMAIL]"}],"n": 1.50}');
    const same = '{"a":"\\u00e9"}';
    expect(spliceJsonStrings(same, (_m, value) => value)).toBe(same);
  });

  it('names the nearest member of a string in arrays and nested objects', () => {
    const seen: [string | undefined, string][] = [];
    spliceJsonStrings('{"a":["x",{"b":"y"}],"c":{"d":["z"]}}', (member, value) => {
      seen.push([member, value]);
      return undefined;
    });
    expect(seen).toEqual([
      ['a', 'x'],
      ['b', 'y'],
      ['d', 'z'],
    ]);
  });
});

describe('guardRequest', () => {
  it('leaves the objects it was given as they were (a stored turn may be shared) and splices the bytes', () => {
    const shared = { role: 'user', content: [{ type: 'input_text', text: 'I am x@y.com' }] };
    const body = { model: 'openai/gpt-5.5', input: [shared, { role: 'user', content: 'hi' }] };
    const raw = Buffer.from(JSON.stringify(body));
    const verdict = guardRequest([redact('email')], { body, raw }, settings)!;
    expect(shared.content[0]!.text).toBe('I am x@y.com');
    expect(verdict.body).not.toBe(body);
    expect((verdict.body.input as (typeof shared)[])[0]!.content[0]!.text).toBe('I am [EMAIL]');
    expect((verdict.body.input as unknown[])[1]).toBe(body.input[1]);
    expect(JSON.parse(verdict.raw.toString())).toEqual(verdict.body);
    expect(verdict.fired).toEqual(['email']);
    const clean = guardRequest([redact('email')], { body: { input: 'hello' }, raw }, settings)!;
    expect(clean.raw).toBe(raw);
  });
});

describe('StreamTextGuard', () => {
  const deltas = (events: StreamEvent[]) =>
    events.map((event) => (event.type === 'text-delta' ? event.text : `<${event.type}>`)).join('');

  it('catches an email split across deltas, holding back no more than the window', () => {
    const guard = new StreamTextGuard({ guardrails: [redact('email')], settings });
    const pieces = ['Hello ', 'alice.sm', 'ith@exa', 'mple.com', ` ${'z'.repeat(HOLD_BACK_CHARS + 10)}`, ' end'];
    let out = '';
    for (const piece of pieces) out += deltas(guard.push([{ type: 'text-delta', text: piece }]));
    // Everything more than the window behind the end has left.
    expect(out.length).toBeGreaterThan(0);
    out += deltas(guard.flush());
    expect(out).toBe(`Hello [EMAIL] ${'z'.repeat(HOLD_BACK_CHARS + 10)} end`);
  });

  it('releases held text before a tool call, so the order stays', () => {
    const guard = new StreamTextGuard({ guardrails: [redact('email')], settings });
    const events = guard.push([
      { type: 'text-delta', text: 'to a@b.io' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'f' } as StreamEvent,
    ]);
    expect(deltas(events)).toBe('to [EMAIL]<tool-call-start>');
  });

  it('never releases the start of a match that crosses the window edge', () => {
    const guard = new StreamTextGuard({ guardrails: [redact('email')], settings });
    const email = 'someone@example.com';
    const head = `${'x'.repeat(HOLD_BACK_CHARS)} `;
    // The email ends past the window: with a cut in its middle, its start would leave unredacted.
    const first = deltas(
      guard.push([{ type: 'text-delta', text: `${head}${email} ${'y'.repeat(HOLD_BACK_CHARS - 5)}` }]),
    );
    expect(first).not.toContain('someone');
    expect(first + deltas(guard.flush())).toBe(`${head}[EMAIL] ${'y'.repeat(HOLD_BACK_CHARS - 5)}`);
  });
});
