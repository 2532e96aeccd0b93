// The serve process logs through a buffered, asynchronous destination: lines wait in memory, and flush() /
// flushSync() are what put them in the file before the process exits.
import { mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessLogger } from '../../src/logger.js';

/** A log file of its own; the descriptor stays open (the destination's periodic flush may still write to it). */
function logFile(): { file: string; fd: number } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'modelgate-log-')), 'gateway.log');
  return { file, fd: openSync(file, 'a') };
}

const messages = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { msg: string }).msg);

describe('createProcessLogger', () => {
  it('does not write a line synchronously, and flush() puts every line in the file', async () => {
    const { file, fd } = logFile();
    const { logger, flush } = createProcessLogger('info', fd);
    logger.info('shutting down');
    logger.info('stopped');
    expect(readFileSync(file, 'utf8')).toBe(''); // still buffered: no syscall per line
    await flush();
    expect(messages(file)).toEqual(['shutting down', 'stopped']);
  });

  it('flushSync() writes the buffered lines before it returns (exit paths without an event loop)', () => {
    const { file, fd } = logFile();
    const { logger, flushSync } = createProcessLogger('info', fd);
    logger.fatal({ err: new Error('boom') }, 'uncaught exception: exiting');
    flushSync();
    expect(messages(file)).toEqual(['uncaught exception: exiting']);
  });

  it('redacts credentials like every other logger', async () => {
    const { file, fd } = logFile();
    const { logger, flush } = createProcessLogger('info', fd);
    logger.info({ authorization: 'Bearer mg-v1-secret' }, 'request');
    await flush();
    expect(readFileSync(file, 'utf8')).not.toContain('mg-v1-secret');
  });
});
