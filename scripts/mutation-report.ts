/**
 * Writes the figures of the last Stryker run (reports/mutation/mutation.json) into
 * docs/reliability.md, between `<!-- mutation:begin -->` and `<!-- mutation:end -->`; the rest
 * of the page is left as it is. Run by `npm run test:mutation` after Stryker; on its own with
 * `node scripts/mutation-report.ts [report.json ...]` (several reports of runs over disjoint modules
 * are merged).
 *
 * Score per file, as Stryker counts it: (killed + timed out) / (killed + timed out + survived
 * + no coverage). Mutants listed as equivalent in stryker.ignorers.mjs (and the texts it
 * leaves out) are counted apart, not scored.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';

type Status = 'Killed' | 'Timeout' | 'Survived' | 'NoCoverage' | 'Ignored' | 'CompileError' | 'RuntimeError' | 'Pending';

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: Status;
  location: { start: { line: number; column: number } };
}

interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}

export interface FileFigures {
  file: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  ignored: number;
  errors: number;
}

const BEGIN = '<!-- mutation:begin -->';
const END = '<!-- mutation:end -->';
/** The bar every file of the money path must clear. */
export const TARGET = 90;

export function figures(report: Report): FileFigures[] {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const count = (...s: Status[]) => mutants.filter((m) => s.includes(m.status)).length;
      return {
        file,
        killed: count('Killed'),
        timeout: count('Timeout'),
        survived: count('Survived'),
        noCoverage: count('NoCoverage'),
        ignored: count('Ignored'),
        errors: count('CompileError', 'RuntimeError'),
      };
    })
    .sort((a, b) => a.file.localeCompare(b.file));
}

/** Detected over scored, as a percentage; null when nothing is scored. */
export function score(f: Omit<FileFigures, 'file'>): number | null {
  const detected = f.killed + f.timeout;
  const scored = detected + f.survived + f.noCoverage;
  return scored === 0 ? null : (100 * detected) / scored;
}

const pct = (s: number | null) => (s === null ? 'n/a' : `${s.toFixed(1)}%`);

export function renderSection(report: Report, ranAt: Date, runs = 1): string {
  const rows = figures(report);
  const total = rows.reduce(
    (t, r) => ({
      killed: t.killed + r.killed,
      timeout: t.timeout + r.timeout,
      survived: t.survived + r.survived,
      noCoverage: t.noCoverage + r.noCoverage,
      ignored: t.ignored + r.ignored,
      errors: t.errors + r.errors,
    }),
    { killed: 0, timeout: 0, survived: 0, noCoverage: 0, ignored: 0, errors: 0 },
  );
  const below = rows.filter((r) => (score(r) ?? 100) < TARGET);
  const lines = [
    `Last run: ${ranAt.toISOString().slice(0, 16).replace('T', ' ')} UTC${runs > 1 ? ` (${runs} runs of this configuration over disjoint modules, merged)` : ''}. Score = (killed + timed out) / (killed + timed out + survived + no coverage); mutants listed as equivalent in stryker.ignorers.mjs, and operation texts and log lines, are not scored.`,
    '',
    '| Module | Score | Killed | Timed out | Survived | No coverage | Not scored |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) => `| \`${r.file}\` | ${pct(score(r))} | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} | ${r.ignored} |`,
    ),
    `| **All** | **${pct(score(total))}** | ${total.killed} | ${total.timeout} | ${total.survived} | ${total.noCoverage} | ${total.ignored} |`,
    '',
    below.length === 0 ? `Every module is at or above ${TARGET}%.` : `Below ${TARGET}%: ${below.map((r) => `\`${r.file}\``).join(', ')}.`,
  ];
  const open = Object.entries(report.files)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, { mutants }]) =>
      mutants
        .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
        .sort((a, b) => a.location.start.line - b.location.start.line)
        .map(
          (m) =>
            `- \`${file}:${m.location.start.line}\` ${m.mutatorName}${m.status === 'NoCoverage' ? ' (no test reaches it)' : ''}: \`${(m.replacement ?? '').replace(/\s+/g, ' ').replace(/`/g, "'").slice(0, 80)}\``,
        ),
    );
  if (open.length > 0) lines.push('', 'Mutants still alive:', '', ...open);
  if (total.errors > 0) lines.push('', `${total.errors} mutants did not compile or crashed the runner (not scored).`);
  return lines.join('\n');
}

/** `page` with the text between the mutation markers replaced by `section`. */
export function replaceSection(page: string, section: string): string {
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/reliability.md has no ${BEGIN} … ${END} block`);
  return `${page.slice(0, start + BEGIN.length)}\n${section}\n${page.slice(end)}`;
}

/** Several reports of runs over disjoint modules, as one (a later report wins for a file in both). */
export function mergeReports(reports: Report[]): Report {
  return { files: Object.assign({}, ...reports.map((r) => r.files)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const paths = process.argv.length > 2 ? process.argv.slice(2) : [new URL('../reports/mutation/mutation.json', import.meta.url).pathname];
  const report = mergeReports(paths.map((p) => JSON.parse(readFileSync(p, 'utf8')) as Report));
  const ranAt = new Date(Math.max(...paths.map((p) => statSync(p).mtime.getTime())));
  const page = new URL('../docs/reliability.md', import.meta.url);
  const section = renderSection(report, ranAt, paths.length);
  writeFileSync(page, replaceSection(readFileSync(page, 'utf8'), section));
  console.log(section);
}
