// What an adapter's converter takes once the request was lowered for its vendor (tool-lowering/): function tools
// without a namespace, calls of them, and the hosted tools the vendor itself runs. Anything else reaching a converter
// means the lowering was skipped (a converter called on its own): refused with a 400 naming the tool, before anything
// is sent, rather than sent without the tool the client relies on.
import { GatewayError } from '../core/gateway-error.js';
import type { GenerationRequest } from '../core/generation-request.js';

function refuse(message: string, field: string, toolType: string, endpoint: string): GatewayError {
  return new GatewayError(
    400,
    `Invalid request: ${message}, which ${endpoint} cannot take on this route; remove it or choose a model whose provider serves it natively`,
    {
      field,
      reason: 'tool_type_not_supported',
      tool_type: toolType,
    },
  );
}

/** `endpoint` names the upstream in the message ("anthropic/claude-sonnet-5-5 at anthropic"). */
export function requireTranslatableTools(
  request: GenerationRequest,
  endpoint: string,
  servesHosted: (name: string) => boolean = () => false,
): void {
  request.tools.forEach((tool, i) => {
    const field = `tools[${i}]`;
    if (tool.type === 'hosted' && !servesHosted(tool.name))
      throw refuse(`${field} is a hosted tool ("${tool.name}")`, `${field}.type`, tool.name, endpoint);
    if (tool.type === 'custom')
      throw refuse(`${field} is a custom tool ("${tool.name}")`, `${field}.type`, 'custom', endpoint);
    if (tool.type !== 'hosted' && tool.namespace !== undefined)
      throw refuse(`${field} belongs to the namespace "${tool.namespace}"`, `${field}.type`, 'namespace', endpoint);
  });
  request.messages.forEach((turn, i) => {
    if (turn.role !== 'assistant') return;
    for (const block of turn.content) {
      if (block.type === 'tool_call' && block.kind !== 'function') {
        throw refuse(
          `messages[${i}] holds a call of the ${block.kind} tool "${block.name}"`,
          `messages[${i}]`,
          block.kind,
          endpoint,
        );
      }
    }
  });
}
