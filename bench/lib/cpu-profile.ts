// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and says where the busy time went: self time per
// function and per module (npm package, Node internals, or our own source file), as % of non-idle time.

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileEntry {
  functionName: string;
  location: string;
  module: string;
  selfMs: number;
  selfPct: number;
}

export interface ProfileSummary {
  file: string;
  /** Whether only the load window was summarized (start-up excluded), or the whole profile. */
  window: 'load' | 'whole';
  /** The load window, microseconds of CLOCK_MONOTONIC (for further analysis of the raw profile). */
  windowUs?: { fromUs: number; toUs: number };
  durationMs: number;
  busyMs: number;
  top: ProfileEntry[];
  modules: { module: string; selfMs: number; selfPct: number }[];
}

/** Which package or area a script belongs to: `pg`, `@scope/pkg`, `node:internal/streams`, `modelgate src/http/x.js`. */
export function moduleOf(url: string, functionName = ''): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const clean = url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = clean.slice(nm + '/node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  if (clean.startsWith('node:')) {
    const parts = clean.slice(5).split('/');
    return `node:${parts.length > 2 ? parts.slice(0, 2).join('/') : parts[0]}`;
  }
  const src = clean.lastIndexOf('/dist/src/');
  if (src >= 0) return `modelgate src/${clean.slice(src + '/dist/src/'.length)}`;
  return clean.split('/').slice(-2).join('/');
}

function location(frame: CallFrame): string {
  if (frame.url === '') return '';
  const clean = frame.url.replace(/^file:\/\//, '');
  const nm = clean.lastIndexOf('/node_modules/');
  const short = nm >= 0 ? clean.slice(nm + '/node_modules/'.length) : clean.replace(/^.*\/dist\//, '');
  return `${short}:${frame.lineNumber + 1}`;
}

/**
 * `window` (microseconds of CLOCK_MONOTONIC, the clock of both V8's profile timestamps and
 * process.hrtime) restricts the summary to the load, leaving out start-up (module loading, schema compiling).
 */
export function summarizeProfile(
  profile: CpuProfile,
  file: string,
  topN = 25,
  window?: { fromUs: number; toUs: number },
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfUs = new Map<number, number>();
  // A sample's duration is the gap to the next sample (the last one gets the mean gap).
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const meanGap = profile.samples.length ? total / profile.samples.length : 0;
  const inWindow = (at: number) => !window || (at >= window.fromUs && at <= window.toUs);
  // Fall back to the whole profile when the window catches nothing (a clock that is not shared after all).
  let useWindow = window !== undefined;
  if (window) {
    let at = profile.startTime;
    useWindow = profile.timeDeltas.some((delta) => {
      at += delta;
      return inWindow(at);
    });
  }
  let at = profile.startTime;
  let firstUs: number | undefined;
  let lastUs = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (useWindow && !inWindow(at)) continue;
    firstUs ??= at;
    lastUs = at;
    const gap = i + 1 < profile.timeDeltas.length ? profile.timeDeltas[i + 1] : meanGap;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + Math.max(0, gap));
  }
  const functions = new Map<string, { frame: CallFrame; us: number }>();
  let idleUs = 0;
  let allUs = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    allUs += us;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    const key = `${frame.functionName}|${frame.url}|${frame.lineNumber}`;
    const entry = functions.get(key) ?? { frame, us: 0 };
    entry.us += us;
    functions.set(key, entry);
  }
  const busyUs = allUs - idleUs;
  const pct = (us: number) => (busyUs > 0 ? Math.round((us / busyUs) * 1000) / 10 : 0);
  const entries = [...functions.values()].sort((a, b) => b.us - a.us);
  const modules = new Map<string, number>();
  for (const { frame, us } of entries) {
    const module = moduleOf(frame.url, frame.functionName);
    modules.set(module, (modules.get(module) ?? 0) + us);
  }
  return {
    file,
    window: useWindow ? 'load' : 'whole',
    ...(useWindow && window ? { windowUs: window } : {}),
    durationMs: Math.round(
      useWindow ? (lastUs - (firstUs ?? lastUs)) / 1000 : (profile.endTime - profile.startTime) / 1000,
    ),
    busyMs: Math.round(busyUs / 1000),
    top: entries.slice(0, topN).map(({ frame, us }) => ({
      functionName: frame.functionName || '(anonymous)',
      location: location(frame),
      module: moduleOf(frame.url, frame.functionName),
      selfMs: Math.round(us / 100) / 10,
      selfPct: pct(us),
    })),
    modules: [...modules.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, topN)
      .map(([module, us]) => ({ module, selfMs: Math.round(us / 100) / 10, selfPct: pct(us) })),
  };
}
