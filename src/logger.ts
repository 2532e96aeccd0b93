// Structured JSON logs. Anything that could carry a credential is redacted at the logger, so no call site can leak one.
import { pino, type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'apiKey',
  'key',
  'secret',
  'token',
  '*.apiKey',
  '*.key',
  '*.secret',
  '*.token',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }, destination);
}

/** Bytes buffered before a write is issued: about twenty request lines, one syscall instead of twenty. */
export const PROCESS_LOG_MIN_LENGTH = 4096;
/** An idle gateway still shows its last lines within this long. */
const PROCESS_LOG_FLUSH_MS = 1000;

export interface ProcessLogger {
  logger: Logger;
  /** Resolves once every line logged so far reached the file descriptor (graceful shutdown, after "stopped"). */
  flush(): Promise<void>;
  /** Writes out every buffered line before returning: for exit paths where the event loop will not run again. */
  flushSync(): void;
}

/**
 * The logger of the `modelgate serve` process. pino's default destination writes each line synchronously (a
 * syscall per line, ~3% of the gateway's CPU under load); this one buffers up to PROCESS_LOG_MIN_LENGTH bytes and
 * writes asynchronously. Buffered lines are not lost: serve flushes after the last line of a graceful stop and on
 * fatal errors, pino itself flushes on process exit, and a periodic flush bounds how long a line waits on an idle
 * gateway.
 */
export function createProcessLogger(level: string, fd = 1): ProcessLogger {
  const destination = pino.destination({
    dest: fd,
    sync: false,
    minLength: PROCESS_LOG_MIN_LENGTH,
    periodicFlush: PROCESS_LOG_FLUSH_MS,
  });
  return {
    logger: createLogger(level, destination),
    // flush() ends with an fsync, which fails on pipes and terminals (EINVAL) after the lines were written: shutdown
    // only needs the lines handed to the descriptor, so any outcome resolves.
    flush: () => new Promise<void>((resolve) => destination.flush(() => resolve())),
    flushSync: () => destination.flushSync(),
  };
}

export type { Logger };
