/**
 * Where a CPU profile (node --cpu-prof) spent its time: self time by function and by package
 * or source folder, the heaviest first. Used with `BENCH_PROFILE=1 npm run bench`.
 *
 *   node scripts/bench/profile-top.ts bench-results/profiles/memory-….cpuprofile [rows=30] [skip-seconds=5]
 *
 * Idle time is left out, and so are the first seconds (start-up: module loading, compiling),
 * so the shares are of the time the process was busy serving.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A package name from node_modules, else the project folder, else a V8/Node category. */
export function areaOf(frame: ProfileNode['callFrame']): string {
  const { url } = frame;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm !== null) return nm[1] as string;
  const own = /\/(src\/[^/]+|mappers|sandbox|scripts)\//.exec(url);
  if (own !== null) return own[1] as string;
  if (url.startsWith('node:')) return url;
  return url === '' ? '(native/gc)' : url.split('/').slice(-2).join('/');
}

/** A function's name and place, as one label. */
export function functionOf(frame: ProfileNode['callFrame']): string {
  const { functionName, url, lineNumber } = frame;
  return `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
}

/**
 * Busy self time (µs) of the samples taken `skipUs` or more after the profile began, summed
 * under the label `key` gives each sample's frame. Idle and "(program)" samples are left out.
 */
export function selfTimes(profile: Profile, skipUs: number, key: (frame: ProfileNode['callFrame']) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  let at = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < skipUs) return;
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined || frame.functionName === '(idle)' || frame.functionName === '(program)') return;
    const k = key(frame);
    out.set(k, (out.get(k) ?? 0) + dt);
  });
  return out;
}

if (import.meta.main) {
  const file = process.argv[2];
  if (file === undefined) throw new Error('usage: profile-top.ts <file.cpuprofile> [rows]');
  const rows = Number(process.argv[3] ?? 30);
  const skipUs = Number(process.argv[4] ?? 5) * 1e6;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const areas = selfTimes(profile, skipUs, areaOf);
  const fns = selfTimes(profile, skipUs, functionOf);
  const totalUs = [...areas.values()].reduce((a, b) => a + b, 0);
  const show = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
      process.stdout.write(`${((us / totalUs) * 100).toFixed(1).padStart(5)}%  ${k}\n`);
    }
  };
  process.stdout.write(`${file}: ${(totalUs / 1e6).toFixed(1)} s busy after the first ${skipUs / 1e6} s\n`);
  show('self time by area', areas);
  show('self time by function', fns);
}
