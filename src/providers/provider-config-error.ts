// Its own module so that what reports it (the CLI's error printer) need not load every provider to recognise it.

/** An environment variable holds an unusable value; the message names the variable. */
export class ProviderConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}
