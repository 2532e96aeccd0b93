// What one generation takes from its front door and gives back to it, on either lane: the door's request as the lanes
// take it (the client's own bytes for the native lane, a lazy translation for the translated lane), and a whole
// answer or an opened stream, as internal results (the door renders them) or as the upstream's own (native).
import type { AnswerKeeping } from '../core/answer-keeping.js';
import type { DoorGuardrails } from '../guardrails/door-guardrails.js';
import type { GenerationRequest } from '../core/generation-request.js';
import type { WireProtocol } from '../core/wire-protocol.js';
import type { GenerationResult, StreamEvent } from '../core/generation.js';
import type { GenerationTotals, StreamEnd } from '../core/stream-renderer.js';
import type { NativeWire } from '../providers/native/native-protocol.js';
import type { NativeStreamEnd } from './native-stream.js';

/** A stream whose first batch was read (the failover window), ready for the writer. */
export type OpenedStream =
  | {
      lane: 'translated';
      events: AsyncGenerator<StreamEvent[], StreamEnd | undefined>;
      first: FirstStep<StreamEvent[], StreamEnd | undefined>;
    }
  | {
      lane: 'native';
      frames: AsyncGenerator<string[], NativeStreamEnd | undefined>;
      first: FirstStep<string[], NativeStreamEnd | undefined>;
    };

/** The first step, or, when the failover window closed before it came, the promise of it. */
export type FirstStep<T, R> = IteratorResult<T, R> | Promise<IteratorResult<T, R>>;

/** A whole (non-streamed) answer: internal results for the door to render, or the upstream's own body (native). */
export type JsonAnswer =
  | { lane: 'translated'; completion: GenerationResult; totals: GenerationTotals }
  | { lane: 'native'; body: Buffer };

/** The door's request as the lanes take it: the client's own (native), or translated on first use (translated). */
export interface GenerationDoor {
  protocol: WireProtocol;
  wire: NativeWire;
  /** The internal request; called at most once, and only when an attempt takes the translated lane. */
  translate(): GenerationRequest;
  /** The door keeps the answer (stored responses), on whichever lane it comes. */
  keeping?: AnswerKeeping;
  /** The request's guardrails (the principal's, with what the input stage found); absent: none set. */
  guardrails?: DoorGuardrails;
}

/**
 * Whether an attempt may take the native lane as far as guardrails go: the output stage reads answers as internal
 * events, so a request with output guardrails takes the translated lane on every endpoint.
 */
export function nativeAllowed(door: GenerationDoor): boolean {
  return door.guardrails === undefined || door.guardrails.output.length === 0;
}
