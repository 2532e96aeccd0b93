// One agent session of the sessions bench (sessions-compare.ts): the coding-agent conversation of the lanes bench
// (agent-requests.ts, ~400 KB in the Responses format) continued for N turns, each turn adding what an agent adds: the
// model's answer, then one tool call and its output. Three ways of sending it, as clients do:
//   full       HTTP, the whole conversation each turn (store: false: the client holds the state);
//   previous   HTTP with previous_response_id (store: true), only the turn's new items;
//   websocket  one socket, response.create frames with previous_response_id (store: false: the socket's memory).
// Every turn streams, as Codex asks; instructions and tools go with every turn (they are not carried forward).
import WebSocket from 'ws';
import { laneBody } from './agent-requests.js';
import { SseEventSplitter } from './sse-events.js';

export type SessionMode = 'full' | 'previous' | 'websocket';
export const SESSION_MODES: readonly SessionMode[] = ['full', 'previous', 'websocket'];

export interface TurnSample {
  /** Bytes of the request the gateway received: the JSON body, or the text frame's payload. */
  bytes: number;
  /** From the first byte sent to the last event read (response.completed). */
  wallMs: number;
  /** Gateway CPU over the turn, all threads. */
  cpuMs: number;
  /**
   * The answer's usage.input_tokens: the mock counts the bytes it received, so a continued turn shows whether the
   * gateway sent the whole expanded conversation upstream.
   */
  upstreamTokens: number;
}

export interface SessionTarget {
  /** http://127.0.0.1:port */
  base: string;
  apiKey: string;
  model: string;
  /** The gateway's CPU so far, nanoseconds. */
  cpuNs: () => number;
}

type Item = Record<string, unknown>;
/** What a completed turn answered: its id and output items. */
interface Answer {
  id: string;
  output: Item[];
  usage?: { input_tokens?: number };
}

const TOOL_OUTPUT_CHARS = 2_600;

/** The tool call and output that the client adds after turn `turn` (different text every turn). */
export function toolRound(turn: number): Item[] {
  const callId = `call_session_${String(turn).padStart(3, '0')}`;
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < TOOL_OUTPUT_CHARS; i++)
    lines.push(`${String(i + 1).padStart(4)}\t  expect(result${i}).toBe("turn ${turn}: C:\\\\tmp\\\\${i}.log");`);
  return [
    { type: 'function_call', call_id: callId, name: 'run_tests', arguments: `{"path":"test/unit-${turn}.test.ts"}` },
    { type: 'function_call_output', call_id: callId, output: lines.join('\n').slice(0, TOOL_OUTPUT_CHARS) },
  ];
}

/** Runs one session of `turns` turns in `mode`; returns one sample per turn. */
export async function runSession(target: SessionTarget, mode: SessionMode, turns: number): Promise<TurnSample[]> {
  const base = JSON.parse(laneBody('responses', 'agent', target.model)) as Item & { input: Item[] };
  const common = { ...base, stream: true };
  const socket = mode === 'websocket' ? await openSocket(target) : undefined;
  const samples: TurnSample[] = [];
  let conversation = [...base.input];
  let previous: Answer | undefined;
  try {
    for (let turn = 0; turn < turns; turn++) {
      const added = turn === 0 ? [] : toolRound(turn);
      let body: Item;
      if (mode === 'full') {
        conversation = [...conversation, ...(previous?.output ?? []), ...added];
        body = { ...common, input: conversation, store: false };
      } else {
        const store = mode === 'previous';
        body = previous
          ? { ...common, input: added, previous_response_id: previous.id, store }
          : { ...common, input: base.input, store };
      }
      const cpuBefore = target.cpuNs();
      const started = performance.now();
      const sent = socket
        ? await socket.turn(JSON.stringify({ type: 'response.create', ...body, stream: undefined }))
        : await postTurn(target, JSON.stringify(body));
      const wallMs = performance.now() - started;
      const cpuMs = (target.cpuNs() - cpuBefore) / 1e6;
      samples.push({ bytes: sent.bytes, wallMs, cpuMs, upstreamTokens: sent.answer.usage?.input_tokens ?? 0 });
      previous = sent.answer;
    }
  } finally {
    socket?.close();
  }
  return samples;
}

function completed(data: string): Answer | undefined {
  const event = JSON.parse(data) as { type?: string; response?: Answer; error?: unknown };
  if (event.type === 'error' || event.type === 'response.failed') throw new Error(`turn failed: ${data.slice(0, 300)}`);
  return event.type === 'response.completed' ? event.response : undefined;
}

async function postTurn(target: SessionTarget, body: string): Promise<{ bytes: number; answer: Answer }> {
  const res = await fetch(`${target.base}/api/v1/responses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.apiKey}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text.slice(0, 300)}`);
  const answer = new SseEventSplitter()
    .push(text)
    .map(completed)
    .find((a) => a !== undefined);
  if (!answer) throw new Error(`no response.completed in: ${text.slice(0, 300)}`);
  return { bytes: Buffer.byteLength(body), answer };
}

interface SessionSocket {
  turn(frame: string): Promise<{ bytes: number; answer: Answer }>;
  close(): void;
}

async function openSocket(target: SessionTarget): Promise<SessionSocket> {
  const ws = new WebSocket(`${target.base.replace(/^http/, 'ws')}/api/v1/responses`, {
    headers: { authorization: `Bearer ${target.apiKey}`, 'openai-beta': 'responses_websockets=2026-02-06' },
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let pending: { resolve: (answer: Answer) => void; reject: (err: Error) => void } | undefined;
  ws.on('message', (data) => {
    try {
      const answer = completed(String(data));
      if (answer) pending?.resolve(answer);
    } catch (err) {
      pending?.reject(err as Error);
    }
  });
  ws.on('close', (code) => pending?.reject(new Error(`socket closed (${code})`)));
  return {
    async turn(frame) {
      const answer = new Promise<Answer>((resolve, reject) => {
        pending = { resolve, reject };
      });
      ws.send(frame);
      return { bytes: Buffer.byteLength(frame), answer: await answer };
    },
    close: () => ws.close(),
  };
}
