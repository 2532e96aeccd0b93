// Whether an owner may see a stored turn: the same organization, and a model the key may use.
import { modelAllowed } from '../auth/authorize-route.js';
import type { StoredTurn, TurnOwner } from '../core/stored-turn.js';

export function turnVisibleTo(turn: StoredTurn, owner: TurnOwner): boolean {
  return turn.owner.organizationId === owner.organizationId && modelAllowed(owner.allowedModels, turn.model);
}
