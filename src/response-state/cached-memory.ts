// A bounded in-process cache in front of a memory (the database's): the turns a conversation continues are almost
// always the ones this process just answered, so the chain is walked without a database round trip per turn. Bounded
// by count and by the JSON size of what it holds; the oldest used go first. Another instance's turns, or any after a
// restart, are read through.
import { turnJson, type ResponseMemory, type StoredTurn, type TurnOwner } from '../core/stored-turn.js';
import { turnVisibleTo } from './turn-visibility.js';

export interface CacheBounds {
  maxTurns: number;
  /** Characters of the turns' JSON (input items and Response). */
  maxChars: number;
  /** A turn older than this is not served from here (retention ended it in the database). */
  maxAgeMs?: number;
}

export const DEFAULT_CACHE_BOUNDS: CacheBounds = { maxTurns: 10_000, maxChars: 256 * 1024 * 1024 };

export class CachedMemory implements ResponseMemory {
  private readonly turns = new Map<string, { turn: StoredTurn; chars: number }>();
  private chars = 0;

  constructor(
    private readonly backing: ResponseMemory,
    private readonly bounds: CacheBounds = DEFAULT_CACHE_BOUNDS,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async get(id: string, owner: TurnOwner): Promise<StoredTurn | undefined> {
    const held = this.turns.get(id);
    if (held) {
      // Most recently used last: Map keeps insertion order.
      this.turns.delete(id);
      this.turns.set(id, held);
      if (this.expired(held.turn)) {
        this.drop(id);
        return undefined;
      }
      return turnVisibleTo(held.turn, owner) ? held.turn : undefined;
    }
    const turn = await this.backing.get(id, owner);
    if (turn) this.hold(turn);
    return turn;
  }

  /**
   * Held at once, so the client's next turn (often sent the moment the answer ends) finds it before the database
   * write lands; a turn the database refused is forgotten again.
   */
  async put(turn: StoredTurn): Promise<void> {
    this.hold(turn);
    try {
      await this.backing.put(turn);
    } catch (err) {
      this.drop(turn.id);
      throw err;
    }
  }

  /** Forgets turns (deleted or purged), so this process stops serving them at once. */
  forget(ids: Iterable<string>): void {
    for (const id of ids) this.drop(id);
  }

  /** Forgets every turn of an organization, or of one member of it. */
  forgetOwner(organizationId: string, memberUserId?: string): void {
    for (const [id, { turn }] of this.turns)
      if (
        turn.owner.organizationId === organizationId &&
        (memberUserId === undefined || turn.owner.memberUserId === memberUserId)
      )
        this.drop(id);
  }

  private expired(turn: StoredTurn): boolean {
    const { maxAgeMs } = this.bounds;
    return maxAgeMs !== undefined && this.now().getTime() - turn.createdAt.getTime() >= maxAgeMs;
  }

  private hold(turn: StoredTurn): void {
    const json = turnJson(turn);
    const chars = json.input.length + json.response.length;
    if (chars > this.bounds.maxChars) return;
    this.drop(turn.id);
    this.turns.set(turn.id, { turn, chars });
    this.chars += chars;
    for (const [id] of this.turns) {
      if (this.turns.size <= this.bounds.maxTurns && this.chars <= this.bounds.maxChars) break;
      this.drop(id);
    }
  }

  private drop(id: string): void {
    const held = this.turns.get(id);
    if (!held) return;
    this.turns.delete(id);
    this.chars -= held.chars;
  }
}
