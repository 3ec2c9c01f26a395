// `node scripts/check-rules.ts` (run by `npm test`): holds the rule IDs that code and tests cite
// to the catalogue in docs/rules.md. It fails, naming file and line, when a source or test file
// cites an ID the catalogue does not define or cites a design decision by its bare number
// (design decisions are written DD-n, so they cannot be confused with the D-n decisions; see
// docs/rules.md); and it fails when a rule the catalogue defines is cited by no test (`*.test.ts`,
// `*.test.tsx`, `e2e/**/*.spec.ts`), unless its row is marked `decision, not tested` (a choice,
// not behaviour), and then only while no test cites it. Relative links
// in the catalogue must point at files that exist, every file a rule's row links (its code and its
// tests) must cite that rule's ID, so a link cannot drift from what it names, and no file may cite a
// document (a capitalised name ending in .md) that the repository does not hold: its docs stand on
// their own. On success it prints one summary line.
//
// What counts as a citation (the same rule docs/rules.md states):
// - one to three groups of 1–3 capital letters joined by hyphens, then a hyphen and a number of
//   1–3 digits with an optional lowercase letter, standing alone (not inside a longer word or
//   hyphenated name): the shapes of AC-01, BF-RT-01, TK-AC-08, GQ-10b and D-4; and RU-P;
// - except names of algorithms and encodings, which have the same shape: SHA-, AES-, UTF-, ISO-;
// - and a bare `D` with 1 to 10, standing alone (not after `%`, `#` or `\`, as in hex), is a
//   design decision cited by its old name (DD-n in docs/rules.md), reported as an error.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CATALOGUE = 'docs/rules.md';
/** Where citations are looked for: every source and test file, tracked or new (not ignored). */
const ROOTS = ['apps', 'packages', 'test', 'e2e', 'bench', 'scripts', 'examples'];
const SOURCE = /\.(ts|tsx|mjs)$/;
const TEST = /(\.test\.tsx?$)|(^e2e\/.*\.spec\.ts$)/;

const CITATION = /(?<![\w-])(?:[A-Z]{1,3}-){1,3}(?:\d{1,3}[a-z]?)(?![\w-])|(?<![\w-])RU-P(?![\w-])/g;
const NOT_A_RULE = /^(SHA|AES|UTF|ISO)-/;
const BARE_DESIGN_DECISION = /(?<![\w%#\\-])D(10|[1-9])(?![\w-])/g;
/** A catalogue row: `| ID | rule | code | tests |`. */
const ROW = /^\|\s*([A-Z][A-Za-z0-9-]*)\s*\|/;
const EXEMPTIONS = ['decision, not tested'] as const;

interface Citation {
  id: string;
  where: string;
}

function sourceFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', ...ROOTS], {
    encoding: 'utf8',
  });
  const topLevel = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.config.ts'],
    {
      encoding: 'utf8',
    },
  );
  const files = new Set([...listed.split('\n'), ...topLevel.split('\n')]);
  return [...files].filter((f) => SOURCE.test(f) && existsSync(f)).sort();
}

function citationsIn(files: string[]): { citations: Citation[]; bare: Citation[] } {
  const citations: Citation[] = [];
  const bare: Citation[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        const where = `${file}:${index + 1}`;
        for (const [id] of line.matchAll(CITATION)) if (!NOT_A_RULE.test(id)) citations.push({ id, where });
        for (const match of line.matchAll(BARE_DESIGN_DECISION)) bare.push({ id: match[0], where });
      });
  }
  return { citations, bare };
}

interface Rule {
  id: string;
  line: number;
  exemption: string | undefined;
  /** The files its row links, as paths from the repository's root. */
  links: string[];
}

function catalogue(problems: string[]): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  readFileSync(CATALOGUE, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const line = index + 1;
      const links: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const path = join(dirname(CATALOGUE), target!);
        if (existsSync(path)) links.push(path);
        else problems.push(`${CATALOGUE}:${line} links to ${target}, which does not exist`);
      }
      const id = ROW.exec(text)?.[1];
      if (id === undefined || id === 'ID') return;
      if (rules.has(id))
        problems.push(`${CATALOGUE}:${line} defines ${id} again (first at line ${rules.get(id)!.line})`);
      rules.set(id, { id, line, exemption: EXEMPTIONS.find((e) => text.includes(`(${e})`)), links });
    });
  return rules;
}

/** Each link of a rule's row whose file does not cite the rule's ID (a folder cites nothing, so cannot be linked). */
function driftingLinks(rules: Map<string, Rule>): { checked: number; drifting: string[] } {
  const cited = new Map<string, Set<string>>();
  const citedIn = (path: string): Set<string> => {
    let ids = cited.get(path);
    if (ids === undefined) {
      const text = statSync(path).isFile() ? readFileSync(path, 'utf8') : '';
      ids = new Set([...text.matchAll(CITATION)].map(([id]) => id));
      cited.set(path, ids);
    }
    return ids;
  };
  let checked = 0;
  const drifting: string[] = [];
  for (const { id, line, links } of rules.values()) {
    for (const path of links) {
      checked += 1;
      if (!citedIn(path).has(id)) drifting.push(`${id}  ${CATALOGUE}:${line} → ${path}`);
    }
  }
  return { checked, drifting };
}

/** A document cited by name, as `README.md` (capitalised, by convention). */
const DOCUMENT = /(?<![\w./-])[A-Z][A-Z0-9_-]*\.md(?![\w-])/g;
const PROSE_OR_SOURCE = /\.(ts|tsx|mjs|js|md)$/;

/** Citations of documents the repository does not hold, in every file it holds that may cite one. */
function missingDocuments(): string[] {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => PROSE_OR_SOURCE.test(f) && !f.includes('node_modules/') && existsSync(f));
  const held = new Set(files.filter((f) => f.endsWith('.md')).map((f) => f.slice(f.lastIndexOf('/') + 1)));
  const missing: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const [name] of line.matchAll(DOCUMENT)) {
          if (!held.has(name)) missing.push(`${name}  ${file}:${index + 1}`);
        }
      });
  }
  return missing;
}

function list(title: string, lines: string[]): string {
  return `${title}\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}

const problems: string[] = [];
const rules = catalogue(problems);
const { citations, bare } = citationsIn(sourceFiles());

const undefinedCitations = new Map<string, string[]>();
const citedByTests = new Map<string, string[]>();
for (const { id, where } of citations) {
  if (!rules.has(id)) undefinedCitations.set(id, [...(undefinedCitations.get(id) ?? []), where]);
  else if (TEST.test(where.slice(0, where.lastIndexOf(':'))))
    citedByTests.set(id, [...(citedByTests.get(id) ?? []), where]);
}

let report = '';
if (problems.length > 0) report += list(`rules: ${CATALOGUE} is not well formed:`, problems);
if (undefinedCitations.size > 0) {
  report += list(
    `rules: ${undefinedCitations.size} cited ID(s) that ${CATALOGUE} does not define (define them, or fix the citation):`,
    [...undefinedCitations].map(([id, where]) => `${id}  ${where.join(', ')}`),
  );
}
if (bare.length > 0) {
  report += list(
    'rules: design decisions cited by their bare number Dn; write DD-n (D-n is the other decision family, see docs/rules.md):',
    bare.map(({ id, where }) => `${id} → DD-${id.slice(1)}  ${where}`),
  );
}
const links = driftingLinks(rules);
if (links.drifting.length > 0) {
  report += list(
    `rules: ${links.drifting.length} link(s) in ${CATALOGUE} to a file that does not cite the row's ID (cite it where the rule is enforced or in the covering test's name, or link the file that does):`,
    links.drifting,
  );
}
const absentDocuments = missingDocuments();
if (absentDocuments.length > 0) {
  report += list(
    `rules: ${absentDocuments.length} citation(s) of a document that is not in the repository (state the fact, or cite docs/):`,
    absentDocuments,
  );
}
const untested = [...rules.values()].filter((r) => r.exemption === undefined && !citedByTests.has(r.id));
if (untested.length > 0) {
  report += list(
    `rules: ${untested.length} rule(s) in ${CATALOGUE} that no test cites (put the ID in the name of the test that covers it):`,
    untested.map((r) => `${r.id}  (${CATALOGUE}:${r.line})`),
  );
}
const staleExemptions = [...rules.values()].filter((r) => r.exemption !== undefined && citedByTests.has(r.id));
if (staleExemptions.length > 0) {
  report += list(
    `rules: marked untested in ${CATALOGUE} but cited by a test (remove the marker):`,
    staleExemptions.map((r) => `${r.id}  (${r.exemption}; cited at ${citedByTests.get(r.id)![0]})`),
  );
}

if (report !== '') {
  process.stderr.write(report);
  process.exit(1);
}

const exempt = [...rules.values()].filter((r) => r.exemption !== undefined).map((r) => r.id);
console.log(
  `rules: ${rules.size} defined, ${citedByTests.size} cited by tests, ${exempt.length} decisions not tested ` +
    `(${exempt.join(', ')}), ${links.checked} links checked, 0 undefined citations`,
);
