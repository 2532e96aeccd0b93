// The GatewayError a call throws (any other error is rethrown; no error at all fails the test).
import { GatewayError } from '../../src/core/gateway-error.js';

export function thrown(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (err) {
    if (err instanceof GatewayError) return err;
    throw err;
  }
  throw new Error('expected a GatewayError');
}
