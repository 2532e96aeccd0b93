// The Responses stream: response.created, response.in_progress, then per output item its added / content / done
// events as the shared block sequencer opens, fills and closes blocks, and response.completed (or .incomplete) with
// usage; a failure after the start sends `error` and response.failed. Every event names itself in the `event:`
// line and carries a sequence_number. Deltas are rendered as they arrive: nothing is held back.
import type { AnswerKeeping } from '../../core/answer-keeping.js';
import type { ToolCallKind } from '../../core/content-blocks.js';
import type { StreamEvent } from '../../core/generation.js';
import type { GenerationIdentity, SseFrame, StreamEnd, StreamRenderer } from '../../core/stream-renderer.js';
import { OutputBlockSequencer, type BlockOp, type ClosedBlock, type OpenedBlock } from '../shared/output-blocks.js';
import { annotationOf, itemId, outputItem, toolCallItem, webSearchItem, type ItemOptions } from './output-items.js';
import {
  errorCode,
  failedOutcome,
  finishOutcome,
  IN_PROGRESS,
  responseObject,
  type ResponseEcho,
} from './response-object.js';
import type { ResponseOutputItem } from './wire-types.js';

const NONE: SseFrame[] = [];

export class ResponseStreamRenderer implements StreamRenderer {
  readonly keepAlive = ': keep-alive\n\n';
  private readonly blocks = new OutputBlockSequencer({ sources: true });
  /** Annotations sent per message item (output index), numbering the next one. */
  private readonly annotations = new Map<number, number>();
  private readonly output: ResponseOutputItem[] = [];
  /** Output indexes of reasoning blocks whose summary part was opened (on their first text). */
  private readonly summaryOpened = new Set<number>();
  private sequence = 0;
  /** The type of the block the sequencer has open (text ops go to a message or a reasoning item). */
  private openKind: OpenedBlock['type'] | undefined;
  /** The open tool call's kind: a custom (freeform) one's input streams as custom_tool_call_input events. */
  private callKind: ToolCallKind = 'function';

  constructor(
    private readonly identity: GenerationIdentity,
    private readonly echo: ResponseEcho,
    /** `keeping`: the door keeps the answer (stored responses): it gets the final Response. */
    private readonly options: ItemOptions & { keeping?: AnswerKeeping },
  ) {}

  start(): SseFrame[] {
    const response = responseObject(this.identity, this.echo, IN_PROGRESS, []);
    return [this.frame('response.created', { response }), this.frame('response.in_progress', { response })];
  }

  event(event: StreamEvent): SseFrame[] {
    const ops = this.blocks.push(event);
    return ops.length === 0 ? NONE : this.render(ops);
  }

  end(end: StreamEnd): SseFrame[] {
    const frames = this.render(this.blocks.finish());
    if (end.type === 'error') {
      const outcome = failedOutcome(end.code, end.message);
      frames.push(this.frame('error', { code: errorCode(end.code), message: end.message, param: null }));
      frames.push(
        this.frame('response.failed', {
          response: responseObject(this.identity, this.echo, outcome, this.output, end.totals),
        }),
      );
      return frames;
    }
    const outcome = finishOutcome(end.finishReason);
    const type =
      outcome.status === 'incomplete'
        ? 'response.incomplete'
        : outcome.status === 'failed'
          ? 'response.failed'
          : 'response.completed';
    const response = responseObject(this.identity, this.echo, outcome, this.output, end.totals);
    this.options.keeping?.final(response as unknown as Record<string, unknown>);
    frames.push(this.frame(type, { response }));
    return frames;
  }

  private render(ops: BlockOp[]): SseFrame[] {
    const frames: SseFrame[] = [];
    for (const op of ops) {
      const output_index = op.index;
      switch (op.op) {
        case 'open': {
          this.openKind = op.block.type;
          const item_id = itemId(this.identity.id, op.block.type, output_index);
          if (op.block.type === 'text') {
            frames.push(
              this.frame('response.output_item.added', {
                output_index,
                item: { type: 'message', id: item_id, status: 'in_progress', role: 'assistant', content: [] },
              }),
            );
            frames.push(
              this.frame('response.content_part.added', {
                item_id,
                output_index,
                content_index: 0,
                part: { type: 'output_text', text: '', annotations: [] },
              }),
            );
          } else if (op.block.type === 'tool_call') {
            const item = toolCallItem(item_id, { ...op.block, input: '' }, 'in_progress');
            this.callKind = op.block.kind;
            frames.push(this.frame('response.output_item.added', { output_index, item }));
          } else if (op.block.type === 'web_search') {
            // The search ran at the vendor before this event: its progress events follow one another at once.
            frames.push(
              this.frame('response.output_item.added', {
                output_index,
                item: webSearchItem(item_id, op.block.search, 'in_progress'),
              }),
            );
            for (const stage of ['in_progress', 'searching', 'completed'])
              frames.push(this.frame(`response.web_search_call.${stage}`, { item_id, output_index }));
          } else {
            frames.push(
              this.frame('response.output_item.added', {
                output_index,
                item: { type: 'reasoning', id: item_id, summary: [] },
              }),
            );
          }
          break;
        }
        case 'text':
          frames.push(...this.textDelta(output_index, op.text));
          break;
        case 'input': {
          // A tool search's arguments have no delta event: the item's done event carries them.
          if (this.callKind === 'tool_search') break;
          const type =
            this.callKind === 'custom'
              ? 'response.custom_tool_call_input.delta'
              : 'response.function_call_arguments.delta';
          frames.push(
            this.frame(type, {
              item_id: itemId(this.identity.id, 'tool_call', output_index),
              output_index,
              delta: op.fragment,
            }),
          );
          break;
        }
        case 'signature':
          break; // travels in the reasoning item's encrypted_content, rendered when the block closes
        case 'citation': {
          const annotation = annotationOf(op.placed);
          if (!annotation) break;
          const annotation_index = this.annotations.get(output_index) ?? 0;
          this.annotations.set(output_index, annotation_index + 1);
          frames.push(
            this.frame('response.output_text.annotation.added', {
              item_id: itemId(this.identity.id, 'text', output_index),
              output_index,
              content_index: 0,
              annotation_index,
              annotation,
            }),
          );
          break;
        }
        case 'close':
          frames.push(...this.closeItem(output_index, op.block));
          break;
      }
    }
    return frames;
  }

  /** Text of the open block: output_text.delta for a message, a summary delta for reasoning. */
  private textDelta(outputIndex: number, delta: string): SseFrame[] {
    if (this.openKind !== 'reasoning') {
      return [
        this.frame('response.output_text.delta', {
          item_id: itemId(this.identity.id, 'text', outputIndex),
          output_index: outputIndex,
          content_index: 0,
          delta,
          logprobs: [],
        }),
      ];
    }
    const item_id = itemId(this.identity.id, 'reasoning', outputIndex);
    const frames: SseFrame[] = [];
    if (!this.summaryOpened.has(outputIndex)) {
      this.summaryOpened.add(outputIndex);
      frames.push(
        this.frame('response.reasoning_summary_part.added', {
          item_id,
          output_index: outputIndex,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        }),
      );
    }
    frames.push(
      this.frame('response.reasoning_summary_text.delta', {
        item_id,
        output_index: outputIndex,
        summary_index: 0,
        delta,
      }),
    );
    return frames;
  }

  private closeItem(outputIndex: number, block: ClosedBlock): SseFrame[] {
    const item = outputItem(this.identity.id, outputIndex, block, this.options);
    const item_id = item.id as string;
    const frames: SseFrame[] = [];
    if (block.type === 'text') {
      const part = (item as unknown as { content: unknown[] }).content[0];
      frames.push(
        this.frame('response.output_text.done', {
          item_id,
          output_index: outputIndex,
          content_index: 0,
          text: block.text,
          logprobs: [],
        }),
      );
      frames.push(
        this.frame('response.content_part.done', { item_id, output_index: outputIndex, content_index: 0, part }),
      );
    } else if (block.type === 'tool_call') {
      if (block.kind === 'custom')
        frames.push(
          this.frame('response.custom_tool_call_input.done', {
            item_id,
            output_index: outputIndex,
            input: block.input,
          }),
        );
      else if (block.kind === 'function')
        frames.push(
          this.frame('response.function_call_arguments.done', {
            item_id,
            output_index: outputIndex,
            name: block.name,
            arguments: block.input,
          }),
        );
    } else if (block.type === 'reasoning' && this.summaryOpened.has(outputIndex)) {
      const part = { type: 'summary_text', text: block.text };
      frames.push(
        this.frame('response.reasoning_summary_text.done', {
          item_id,
          output_index: outputIndex,
          summary_index: 0,
          text: block.text,
        }),
      );
      frames.push(
        this.frame('response.reasoning_summary_part.done', {
          item_id,
          output_index: outputIndex,
          summary_index: 0,
          part,
        }),
      );
    }
    frames.push(this.frame('response.output_item.done', { output_index: outputIndex, item }));
    this.output.push(item);
    return frames;
  }

  private frame(type: string, fields: Record<string, unknown>): SseFrame {
    return { event: type, data: JSON.stringify({ type, sequence_number: this.sequence++, ...fields }) };
  }
}
