// Random bytes drawn from one pre-filled buffer. `randomBytes(10)` per id crosses into OpenSSL (and allocates a
// Buffer) on every request, ~2.5% of the gateway's CPU at concurrency 1; one fill of the whole pool serves
// hundreds of ids. Every byte is handed out once; a pool that cannot serve a whole request is refilled whole
// (its tail is dropped), so ids never share bytes and no id mixes old and new bytes.
import { randomFillSync } from 'node:crypto';

export class RandomBytePool {
  private readonly pool: Buffer;
  private offset: number;

  constructor(
    size = 4096,
    private readonly fill: (buffer: Buffer) => void = (buffer) => randomFillSync(buffer),
  ) {
    // Its own memory, not a slice of Node's shared allocation pool that other Buffers live in.
    this.pool = Buffer.allocUnsafeSlow(size);
    this.offset = size;
  }

  /** `bytes` fresh random bytes, base64url-encoded (as `randomBytes(bytes).toString('base64url')` would be). */
  base64url(bytes: number): string {
    if (!Number.isInteger(bytes) || bytes < 1 || bytes > this.pool.length) {
      throw new RangeError(`Cannot draw ${bytes} bytes from a pool of ${this.pool.length}`);
    }
    if (this.offset + bytes > this.pool.length) {
      this.fill(this.pool);
      this.offset = 0;
    }
    const text = this.pool.toString('base64url', this.offset, this.offset + bytes);
    this.offset += bytes;
    return text;
  }
}
