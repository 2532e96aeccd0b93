// Internal stream events → chat-completions chunk deltas: answer text as `content`, reasoning text as `reasoning`,
// reasoning records as `reasoning_details` entries, tool calls as `tool_calls` fragments by index, refusals as
// `refusal`, a cited web page as `annotations` (indexes into the whole content streamed so far). Events that are no
// output (ids, usage, finish, web searches, citations of no web page) make no delta.
import type { StreamEvent } from '../../core/generation.js';
import { detailOfReasoning } from '../shared/reasoning-details.js';
import { chatAnnotation } from '../shared/url-citations.js';
import type { ChunkDelta, ToolCallDelta } from './wire-types.js';

export type Delta = Omit<ChunkDelta, 'role'>;

export class DeltaRenderer {
  /** Reasoning records rendered so far: numbers those the vendor did not number. */
  private records = 0;
  /** Characters of answer text rendered so far: where a citation's span ends. */
  private contentLength = 0;

  delta(event: StreamEvent): Delta | undefined {
    switch (event.type) {
      case 'text-delta':
        this.contentLength += event.text.length;
        return { content: event.text };
      case 'citation': {
        if (event.span === undefined) return undefined;
        const annotation = chatAnnotation(
          event.citation,
          Math.max(0, this.contentLength - event.span),
          this.contentLength,
        );
        return annotation ? ({ annotations: [annotation] } as Delta) : undefined;
      }
      case 'reasoning-delta':
        return { reasoning: event.text };
      case 'reasoning-state':
        return { reasoning_details: [detailOfReasoning(event.state, this.records++)] } as Delta;
      case 'tool-call-start': {
        const call: ToolCallDelta = {
          index: event.index,
          id: event.id,
          type: 'function',
          function: { name: event.name, arguments: event.input ?? '' },
        };
        return { tool_calls: [call] };
      }
      case 'tool-call-delta':
        return { tool_calls: [{ index: event.index, function: { arguments: event.input } }] };
      case 'refusal-delta':
        return { refusal: event.text };
      default:
        return undefined;
    }
  }
}
