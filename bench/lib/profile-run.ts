// Profiles the gateway under load: a fresh gateway process under `node --cpu-prof`, non-streaming then streaming
// load at c=16, a graceful stop (V8 writes the profile at exit), and a summary of where the time went.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { MeasureContext } from './measure.js';
import type { RunningSystem } from './systems.js';
import { chatBody } from './requests.js';
import { summarizeProfile, type CpuProfile, type ProfileSummary } from './cpu-profile.js';

export async function profileGateway(
  ctx: MeasureContext,
  start: (nodeArgs: string[]) => Promise<RunningSystem>,
  seconds: number,
): Promise<ProfileSummary> {
  const dir = path.join(ctx.runDir, 'cpu-profile');
  mkdirSync(dir, { recursive: true });
  const system = await start(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  let fromUs: number | undefined;
  let toUs = 0;
  try {
    for (const scenario of ['json', 'stream'] as const) {
      await ctx.load.run(
        {
          url: system.url,
          headers: { ...system.headers, 'content-type': 'application/json' },
          body: chatBody(scenario, system.model),
          connections: 16,
          warmupSeconds: 1,
          measureSeconds: seconds,
        },
        () => (fromUs ??= nowUs()),
      );
    }
    toUs = nowUs();
  } finally {
    await ctx.group.stop(system.child, 40_000);
  }
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}: the gateway did not exit cleanly`);
  const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;
  // Named relative to the repository (runDir is <repo>/bench/.run) so results do not carry machine paths.
  const window = fromUs !== undefined && toUs > fromUs ? { fromUs, toUs } : undefined;
  return summarizeProfile(profile, path.relative(path.resolve(ctx.runDir, '../..'), path.join(dir, file)), 25, window);
}
