// A service's refusal (no such organization, the last owner, a role that may not do it) is the command's failure
// (exit 1 with its message), not an internal error.
import { GatewayError } from '../core/gateway-error.js';
import { CommandFailedError } from './cli-errors.js';

export async function asCommand<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof GatewayError && err.status < 500) throw new CommandFailedError(err.message);
    throw err;
  }
}
