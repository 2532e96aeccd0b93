// The messages of the credit lease channel (src/billing/lease-recalls.ts): what goes out fits a NOTIFY payload and
// comes back as sent; anything else on the channel is ignored, never thrown on.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLeaseMessage, encodeAnswer, encodeRecall } from '../../src/billing/lease-recalls.js';

describe('lease recall messages', () => {
  it('round-trips recalls of any holders, split into payloads PostgreSQL accepts (< 8000 bytes)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.array(
          fc.string({
            minLength: 1,
            maxLength: 120,
            unit: fc.oneof(fc.constant('\u0001'), fc.constant('é'), fc.constant('😀'), fc.constant('a')),
          }),
          { minLength: 1, maxLength: 300 },
        ),
        (userId, holders) => {
          const payloads = encodeRecall(userId, holders);
          const named: string[] = [];
          for (const payload of payloads) {
            expect(Buffer.byteLength(payload)).toBeLessThan(8000);
            const message = decodeLeaseMessage(payload);
            expect(message?.t).toBe('recall');
            if (message?.t !== 'recall') continue;
            expect(message.u).toBe(userId);
            named.push(...message.h);
          }
          expect(named).toEqual(holders);
        },
      ),
    );
  });

  it('round-trips answers', () => {
    expect(decodeLeaseMessage(encodeAnswer('usr_1', 'host/1/ab'))).toEqual({
      t: 'released',
      u: 'usr_1',
      h: 'host/1/ab',
    });
  });

  it("reads a budget's change, as the database trigger writes it", () => {
    expect(decodeLeaseMessage('{"t": "budget", "b": "key:usr_1:key_1"}')).toEqual({
      t: 'budget',
      b: 'key:usr_1:key_1',
    });
  });

  it('ignores what is not one of its messages', () => {
    for (const payload of [
      '',
      '*',
      'null',
      '[]',
      '{"t":"recall","u":"x"}',
      '{"t":"recall","u":"x","h":[1]}',
      '{"t":"released","u":1,"h":"a"}',
      '{"t":"other","u":"x","h":"a"}',
      '{"t":"budget","b":1}',
      '{"t":"budget"}',
    ]) {
      expect(decodeLeaseMessage(payload)).toBeUndefined();
    }
  });
});
