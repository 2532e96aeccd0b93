// Whether a graceful stop has begun. server.ts's close() marks it before anything else, so readiness turns 503
// while the instance still finishes its requests in flight.
export class Lifecycle {
  private stopping = false;

  get shuttingDown(): boolean {
    return this.stopping;
  }

  beginShutdown(): void {
    this.stopping = true;
  }
}
