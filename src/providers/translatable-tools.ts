// The tools and tool calls every adapter can send today: function tools without a namespace and calls of them.
// Custom (freeform) tools, namespaced tools and hosted tools are carried by the internal model, but turning them into
// something a vendor without them understands is not done yet: such a request is refused with a 400 that names the
// tool, before anything is sent, rather than sent without the tool the client relies on.
import { GatewayError } from '../core/gateway-error.js';
import type { GenerationRequest } from '../core/generation-request.js';

function refuse(message: string, field: string, toolType: string, endpoint: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}, which ${endpoint} cannot take on this route; remove it or choose a model whose provider serves it natively`, {
    field, reason: 'tool_type_not_supported', tool_type: toolType,
  });
}

/** `endpoint` names the upstream in the message ("anthropic/claude-sonnet-5-5 at anthropic"). */
export function requireTranslatableTools(request: GenerationRequest, endpoint: string): void {
  request.tools.forEach((tool, i) => {
    const field = `tools[${i}]`;
    if (tool.type === 'hosted') throw refuse(`${field} is a hosted tool ("${tool.name}")`, `${field}.type`, tool.name, endpoint);
    if (tool.type === 'custom') throw refuse(`${field} is a custom tool ("${tool.name}")`, `${field}.type`, 'custom', endpoint);
    if (tool.namespace !== undefined) throw refuse(`${field} belongs to the namespace "${tool.namespace}"`, `${field}.type`, 'namespace', endpoint);
  });
  request.messages.forEach((turn, i) => {
    if (turn.role !== 'assistant') return;
    for (const block of turn.content) {
      if (block.type === 'tool_call' && block.kind === 'custom') {
        throw refuse(`messages[${i}] holds a call of the custom tool "${block.name}"`, `messages[${i}]`, 'custom', endpoint);
      }
    }
  });
}
