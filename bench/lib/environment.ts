// Facts about the machine and the code a run measured, recorded with the results (read-only git queries).
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { BenchResults } from './results.js';

export function machineInfo(): BenchResults['machine'] {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    kernel: os.release(),
    loadAverageAtStart: os.loadavg(),
  };
}

export function gitInfo(repoRoot: string): BenchResults['git'] {
  try {
    const git = (args: string[]) =>
      execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return { commit: git(['rev-parse', 'HEAD']), dirty: git(['status', '--porcelain', '--untracked-files=no']) !== '' };
  } catch {
    return undefined;
  }
}

/** Lines, errors and warnings in a pino JSON log file. */
export function logStats(file: string): { lines: number; errors: number; warnings: number } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { lines: 0, errors: 0, warnings: 0 };
  }
  let lines = 0;
  let errors = 0;
  let warnings = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    lines++;
    const level = /"level":(\d+)/.exec(line);
    if (level && Number(level[1]) >= 50) errors++;
    else if (level && Number(level[1]) === 40) warnings++;
  }
  return { lines, errors, warnings };
}
