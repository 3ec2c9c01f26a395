// The figures of the last `npm run bench`, written into bench/results.md beside the README, so
// that the README explains the rows and never carries figures edited by hand (issue 27).
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';

export const RESULTS_FILE = fileURLToPath(new URL('./results.md', import.meta.url));

export interface Goal {
  goal: string;
  measured: string;
  pass: boolean;
}

/** One row of the results table: what was measured, as the run printed it. */
export interface Figure {
  figure: string;
  measured: string;
}

export interface Section {
  section: string;
  figures: Figure[];
  goals: Goal[];
}

/** A table cell: Markdown's cell separator and line breaks escaped. */
const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

export function resultsMarkdown(sections: readonly Section[], quick: boolean, at: Date = new Date()): string {
  const cores = cpus();
  const machine = `${cores[0]?.model.trim() ?? 'unknown CPU'}, ${cores.length} cores, ${Math.round(totalmem() / 2 ** 30)} GB, ${process.platform} ${release()} (${process.arch})`;
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` ([run.ts](run.ts)) at the end of each run: not edited by hand. What each',
    'row measures, and why: [README.md](README.md).',
    '',
    `- Date: ${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Machine: ${machine}`,
    `- Node: ${process.version}`,
    // The machine may be shared: how busy it was says how far to trust the figures.
    `- Load average at the end (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
    `- Run: ${quick ? 'BENCH_QUICK=1 (the one-million-row token tables left out)' : 'full'}`,
    '',
    '| Section | Figure | Measured |',
    '|---|---|---|',
    ...sections.flatMap(({ section, figures }) =>
      figures.map(({ figure, measured }) => `| ${cell(section)} | ${cell(figure)} | ${cell(measured)} |`),
    ),
    '',
    '## Goals',
    '',
    '| Section | Goal | Measured | |',
    '|---|---|---|---|',
    ...sections.flatMap(({ section, goals }) =>
      goals.map(
        ({ goal, measured, pass }) =>
          `| ${cell(section)} | ${cell(goal)} | ${cell(measured)} | ${pass ? 'met' : '**not met**'} |`,
      ),
    ),
    '',
  ];
  return lines.join('\n');
}

export function writeResults(sections: readonly Section[], quick: boolean): void {
  writeFileSync(RESULTS_FILE, resultsMarkdown(sections, quick));
}
