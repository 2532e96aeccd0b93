// The adapter context of an attempt's endpoint: who is called with what model, whether it streams, and the client's
// protocol headers. An attempt on the same endpoint keeps the context it had (and the request's tools it was given).
import type { AdapterContext } from '../providers/adapter.js';
import type { Target } from '../routing/resolve-target.js';
import type { GenerationDoor } from './generation-door.js';

export function adapterContextFor(
  current: AdapterContext | undefined,
  target: Target,
  run: { stream: boolean; door: GenerationDoor },
): AdapterContext {
  if (
    current !== undefined &&
    target.provider === current.provider &&
    target.model.id === current.model.id &&
    target.model.upstreamModel === current.model.upstreamModel
  )
    return current;
  return {
    provider: target.provider,
    model: target.model,
    stream: run.stream,
    clientHeaders: run.door.wire.clientHeaders,
  };
}
