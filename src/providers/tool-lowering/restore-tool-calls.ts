// The vendor's tool calls back under the client's names (lower-tools.ts in reverse): a flattened name becomes
// `{name, namespace}` again, a custom tool's call becomes a custom call with its raw text input (streamed as it is
// decoded), a tool search's call a tool search call. Calls of names the table does not know pass unchanged.
import type { GenerationResult, OutputBlock, StreamEvent } from '../../core/generation.js';
import type { SseEvent, StreamTranslator } from '../adapter.js';
import { CustomInputDecoder, decodeWhole } from './custom-input-decoder.js';
import type { ToolNameTable } from './vendor-tool-names.js';

export function restoreResult(result: GenerationResult, table: ToolNameTable): GenerationResult {
  if (!table.renames) return result;
  const output = result.output.map((block): OutputBlock => {
    if (block.type !== 'tool_call') return block;
    const tool = table.reverse(block.name);
    if (!tool) return block;
    const { namespace: _namespace, ...rest } = block;
    const restored = {
      ...rest,
      name: tool.name,
      kind: tool.kind,
      input: tool.kind === 'custom' ? decodeWhole(block.input) : block.input,
    };
    return tool.namespace === undefined ? restored : { ...restored, namespace: tool.namespace };
  });
  return { ...result, output };
}

/** Restores the events of one stream; stateful (custom calls' inputs are decoded across fragments). */
class StreamRestorer {
  private readonly decoders = new Map<number, CustomInputDecoder>();

  constructor(private readonly table: ToolNameTable) {}

  map(events: StreamEvent[]): StreamEvent[] {
    return events.flatMap((event) => this.one(event));
  }

  /** Custom calls whose arguments never took the `{"input": ...}` shape: their input, whole. */
  flush(): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const [index, decoder] of this.decoders) {
      const rest = decoder.end();
      if (rest !== '') out.push({ type: 'tool-call-delta', index, input: rest });
    }
    this.decoders.clear();
    return out;
  }

  private one(event: StreamEvent): StreamEvent[] {
    switch (event.type) {
      case 'tool-call-start': {
        const tool = this.table.reverse(event.name);
        if (!tool) return [event];
        const { namespace: _namespace, input, ...rest } = event;
        const start: StreamEvent = { ...rest, name: tool.name, kind: tool.kind };
        if (tool.namespace !== undefined) start.namespace = tool.namespace;
        if (tool.kind !== 'custom') return [input === undefined ? start : { ...start, input }];
        const decoder = new CustomInputDecoder();
        this.decoders.set(event.index, decoder);
        const first = input === undefined ? '' : decoder.push(input);
        return [{ ...start, input: first }];
      }
      case 'tool-call-delta': {
        const decoder = this.decoders.get(event.index);
        if (!decoder) return [event];
        const text = decoder.push(event.input);
        return text === '' ? [] : [{ ...event, input: text }];
      }
      case 'finish':
      case 'error':
        return [...this.flush(), event];
      default:
        return [event];
    }
  }
}

export function restoringTranslator(inner: StreamTranslator, table: ToolNameTable): StreamTranslator {
  if (!table.renames) return inner;
  const restorer = new StreamRestorer(table);
  return {
    push: (event: SseEvent) => restorer.map(inner.push(event)),
    end: () => [...restorer.map(inner.end()), ...restorer.flush()],
  };
}
