// What ties an upstream call to its client. A model that may reason invisibly (adapter.hidesReasoning) is billed by
// the provider for reasoning tokens the stream never shows, and a client that leaves before the final usage chunk
// would otherwise be billed only what it saw. So when such a stream loses its client, the upstream is read on, out
// of sight, for at most MODELGATE_DRAIN_ON_ABORT_S, and the provider's own usage is billed. Every other call (every
// token visible in the stream, a JSON answer, draining off) is aborted as soon as the client leaves, as before.
// Past the bound, or when a graceful stop cuts the drain, the upstream is aborted and the stated estimate billed.
import { DisconnectSignal } from '../core/disconnect-signal.js';
import type { CallSignal } from '../providers/http-client.js';
import type { Drainable, UpstreamDrains } from './upstream-drains.js';

/** The client's side: aborted when it went away before the response finished. */
export type ClientSignal = CallSignal & { readonly aborted: boolean };

/** What the stream reader needs to know about the drain. */
export interface DrainState {
  /** The client left and the upstream is being read on (until it ends, the bound elapses or a stop cuts it). */
  readonly draining: boolean;
  /** The upstream was aborted before it finished because the bound elapsed or the process stopped. */
  readonly cutOff: boolean;
}

export interface UpstreamLinkOptions {
  /** The drain bound, ms; 0 = never drain. */
  boundMs: number;
  /** Whether the upstream being called now may bill tokens its stream never shows. */
  mayHideTokens: () => boolean;
  drains: UpstreamDrains;
}

export class UpstreamLink implements Drainable, DrainState {
  /** Cancels the upstream call: what the HTTP client listens to, in place of the client's own signal. */
  readonly signal = new DisconnectSignal();
  draining = false;
  cutOff = false;
  private finished = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly client: ClientSignal,
    private readonly options: UpstreamLinkOptions,
  ) {
    if (client.aborted) this.clientGone();
    else if ('addEventListener' in client) client.addEventListener('abort', this.clientGone, { once: true });
    else client.once('abort', this.clientGone);
  }

  private readonly clientGone = (): void => {
    if (this.finished) return;
    if (this.options.boundMs === 0 || !this.options.mayHideTokens()) {
      this.signal.abort();
      return;
    }
    if (this.options.drains.closed) {
      this.cut();
      return;
    }
    this.draining = true;
    this.options.drains.add(this);
    this.timer = setTimeout(() => this.cut(), this.options.boundMs);
  };

  cut(): void {
    if (this.finished || this.cutOff) return;
    this.cutOff = true;
    this.stopDraining();
    this.signal.abort();
  }

  /** The generation is settled: nothing is read any more, nothing is left to cut. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopDraining();
    if ('removeEventListener' in this.client) this.client.removeEventListener('abort', this.clientGone);
    else this.client.removeListener('abort', this.clientGone);
  }

  private stopDraining(): void {
    this.draining = false;
    clearTimeout(this.timer);
    this.options.drains.delete(this);
  }
}
