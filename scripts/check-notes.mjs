// Checks the repository's `Note [Name]` comments (PyTorch's convention, DESIGN.md): each Note is
// defined once, and every mention of a Note names one that is defined somewhere.
//
// A definition is a Note title that starts a comment block or paragraph: a comment line (or
// Markdown line) that is the title alone (`* Note [Name]`, optionally followed by ':'), or the
// first line of a comment block or paragraph that begins with the title (`// Note [Name]: ...`).
// Every other occurrence (`See Note [Name]`, `(Note [Name])`, a test name, a title wrapped
// across two lines) is a reference.
//
// Fails (exit 1) on two definitions of one name, on references to a name defined nowhere, on a
// Note that no code or text cites (its row in the index does not count: a Note nobody points to
// is a comment, and its title only looks like a contract), and on a Note that the index in
// docs/concepts.md does not list, or lists under another file.
// Usage: node scripts/check-notes.mjs [--list] [repository folder] (from `pnpm lint`). Scans the
// files git tracks or would track (not ignored), with the extensions below. --list prints every
// Note with where it is defined.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const LIST = args.includes('--list');
const ROOT = args.find((a) => !a.startsWith('--')) ?? join(import.meta.dirname, '..');
const EXTENSIONS = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|py|sh|ya?ml)$/;
/** this script, whose comments show the syntax rather than name Notes */
const SELF = 'scripts/check-notes.mjs';

const TITLE = 'Note\\s+\\[([^\\]\\n]+)\\]';
/** a comment line's leader: `//`, `/*`, `/**`, `*`, `#` (Python, shell, Markdown headings), `>` (Markdown quotes) */
const LEADER = String.raw`(?:\/\/+|\/\*+|\*|#+|>)`;
const TITLE_ALONE = new RegExp(String.raw`^\s*${LEADER}?\s*[*_\`]*${TITLE}[*_\`]*\s*:?\s*(?:\*\/)?\s*$`);
const TITLE_FIRST = new RegExp(String.raw`^\s*${LEADER}?\s*[*_\`]*${TITLE}`);
const OPENER_ONLY = /^\s*\/\*+\s*$/;

const normalize = (name) => name.replace(/\s+/g, ' ').trim();

function files() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out.split('\0').filter((f) => f && EXTENSIONS.test(f) && f !== SELF);
}

/** Whether line i starts a comment block (code) or a paragraph (Markdown). A comment after code on the same line never does. */
function startsBlock(lines, i, markdown) {
  const line = lines[i];
  const prev = i > 0 ? lines[i - 1] : '';
  if (markdown) return prev.trim() === '' || /^\s*#/.test(prev);
  if (/^\s*\/\*/.test(line)) return true; // the block opens on this line
  if (OPENER_ONLY.test(prev)) return true; // the line right after a bare `/*` or `/**`
  if (/^\s*\/\//.test(line)) return !/^\s*\/\/(?!\/\s*<)/.test(prev); // the first of a run of `//` lines (a `/// <reference>` is no comment)
  if (/^\s*#/.test(line)) return !/^\s*#/.test(prev); // the first of a run of `#` lines
  return false; // a `*` line inside a block
}

const definitions = new Map(); // name -> ['path:line', ...]
const references = new Map(); // name -> ['path:line', ...]
const add = (map, name, where) => map.set(name, [...(map.get(name) ?? []), where]);

for (const file of files()) {
  let text;
  try {
    text = readFileSync(join(ROOT, file), 'utf8');
  } catch {
    continue; // listed by git but gone from the working tree
  }
  if (!/Note\s+\[/.test(text)) continue;
  const markdown = file.endsWith('.md');
  const lines = text.split('\n');
  const defined = new Set(); // line numbers holding a definition
  lines.forEach((line, i) => {
    const alone = TITLE_ALONE.exec(line);
    const first = alone ? null : TITLE_FIRST.exec(line);
    const m = alone ?? (first && startsBlock(lines, i, markdown) ? first : null);
    if (m) {
      add(definitions, normalize(m[1]), `${file}:${i + 1}`);
      defined.add(i);
    }
  });
  // references: every title in the text with comment leaders dropped at line starts, so a title
  // wrapped across lines (`(Note` / ` * [Name])`) is one title; definitions' own titles excepted
  const joined = lines.map((l) => l.replace(new RegExp(`^\\s*${LEADER}?\\s*`), '')).join('\n');
  const starts = [0];
  for (const l of lines)
    starts.push(starts[starts.length - 1] + l.replace(new RegExp(`^\\s*${LEADER}?\\s*`), '').length + 1);
  const lineOf = (offset) => {
    let lo = 0;
    while (lo + 1 < starts.length && starts[lo + 1] <= offset) lo++;
    return lo;
  };
  const seenOnDefinitionLine = new Map();
  for (const m of joined.matchAll(/Note\s+\[([^\]]+)\]/g)) {
    const line = lineOf(m.index);
    const name = normalize(m[1]);
    if (defined.has(line) && !seenOnDefinitionLine.has(line)) {
      seenOnDefinitionLine.set(line, name); // the definition's own title
      continue;
    }
    add(references, name, `${file}:${line + 1}`);
  }
}

if (LIST)
  for (const [name, where] of [...definitions].sort(([a], [b]) => a.localeCompare(b)))
    console.log(`Note [${name}]\t${where.join(', ')}`);

const problems = [];
for (const [name, where] of [...definitions].sort(([a], [b]) => a.localeCompare(b))) {
  if (where.length > 1)
    problems.push(
      `Note [${name}] is defined ${where.length} times: ${where.join(', ')} (rename all but one, and their references)`,
    );
}
for (const [name, where] of [...references].sort(([a], [b]) => a.localeCompare(b))) {
  if (!definitions.has(name)) problems.push(`Note [${name}] is referenced but defined nowhere: ${where.join(', ')}`);
}

// the index in docs/concepts.md: one row per Note, `| Note [Name] | \`file\` |`, naming the file that defines it
const INDEX = 'docs/concepts.md';
const indexed = new Map();
const indexText = readFileSync(join(ROOT, INDEX), 'utf8');
for (const m of indexText.matchAll(/^\| Note \[([^\]]+)\] \| `([^`]+)` \|/gm)) indexed.set(normalize(m[1]), m[2]);
const indexRows = new Set(
  indexText
    .split('\n')
    .map((line, i) => (/^\| Note \[[^\]]+\] \| `/.test(line) ? `${INDEX}:${i + 1}` : null))
    .filter((w) => w !== null),
);
for (const [name, where] of [...definitions].sort(([a], [b]) => a.localeCompare(b))) {
  const cited = (references.get(name) ?? []).filter((w) => !indexRows.has(w));
  if (cited.length === 0)
    problems.push(
      `Note [${name}] (${where.join(', ')}) is cited nowhere: cite it where it matters, or make it a plain comment`,
    );
}
for (const [name, where] of [...definitions].sort(([a], [b]) => a.localeCompare(b))) {
  if (where.some((w) => w.startsWith(`${INDEX}:`))) continue; // a Note of the index's own text
  const file = indexed.get(name);
  if (file === undefined) problems.push(`Note [${name}] (${where.join(', ')}) is missing from the index in ${INDEX}`);
  else if (!where.some((w) => w.startsWith(`${file}:`)))
    problems.push(`Note [${name}] is indexed in ${INDEX} under ${file}, but defined in ${where.join(', ')}`);
}

if (problems.length > 0) {
  console.error(
    `check-notes: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(
  `check-notes: ${definitions.size} Notes, each defined once; ${[...references.values()].reduce((n, w) => n + w.length, 0)} references, all defined`,
);
