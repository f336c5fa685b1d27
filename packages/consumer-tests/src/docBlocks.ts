// The code blocks of the repository's documentation: every README (root, packages/*, apps/*) and
// docs/*.md, as fenced blocks with their language. docExamples.test.ts says how each TypeScript
// block is checked and checks it.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './consumer.js';

export interface DocBlock {
  /** the document, relative to the repository root */
  doc: string;
  /** 1-based, among the document's blocks of the same language family (ts or shell) */
  index: number;
  lang: string;
  code: string;
  /** `doc #index`, how specs name the block */
  id: string;
}

/** every README and docs/*.md the repository has, relative to its root */
export function docFiles(): string[] {
  const readmes = (dir: string) =>
    readdirSync(join(ROOT, dir))
      .sort()
      .map((name) => `${dir}/${name}/README.md`)
      .filter((f) => existsSync(join(ROOT, f)));
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...readmes('packages'), ...readmes('apps'), ...docs];
}

const TS = new Set(['ts', 'typescript']);

/** The TypeScript blocks of a document (```ts or ```typescript), numbered as readmeTypes.test.ts numbers them. */
export function tsBlocks(doc: string): DocBlock[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => TS.has(m[1]!))
    .map((m, i) => ({ doc, index: i + 1, lang: m[1]!, code: m[2]!, id: `${doc} #${i + 1}` }));
}

/**
 * What a block's comments say it prints: `console.log(x); // <json>` lines, and a bare call's
 * `f(); // { key: value, ... }` (its keys). Each becomes a check that runs with the block.
 */
export interface Expectation {
  line: number;
  kind: 'json' | 'keys';
  expected: unknown;
}

const LOG = /^(\s*)console\.log\((.+)\);(\s*)\/\/\s*(.+)$/;
const CALL = /^(\s*)(\w+\(\));(\s*)\/\/\s*(\{.*\})\s*$/;

function json(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The block made a program that reports its values: each checked line passes its value through
 * `__doc(line, value)`, and the program prints what it saw as its last line (`@@doc [...]`).
 */
export function instrument(code: string): { program: string; expectations: Expectation[] } {
  const expectations: Expectation[] = [];
  const lines = code.split('\n').map((text, k) => {
    const log = LOG.exec(text);
    if (log) {
      const parsed = json(log[4]!);
      if (!parsed.ok) return text;
      expectations.push({ line: k + 1, kind: 'json', expected: parsed.value });
      return `${log[1]}console.log(__doc(${k + 1}, ${log[2]}));`;
    }
    const call = CALL.exec(text);
    if (call) {
      // `{ a: 1, b }`: the names right after `{` or `,` (values follow a colon)
      const keys = [...call[4]!.matchAll(/[{,]\s*(\w+)/g)].map((m) => m[1]!);
      expectations.push({ line: k + 1, kind: 'keys', expected: keys });
      return `${call[1]}__doc(${k + 1}, ${call[2]});`;
    }
    return text;
  });
  const prelude = [
    'const __docSeen = [];',
    'const __doc = (line, value) => { __docSeen.push([line, JSON.parse(JSON.stringify(value ?? null))]); return value; };',
    "process.on('exit', () => console.log('@@doc ' + JSON.stringify(__docSeen)));",
  ].join('\n');
  return { program: `${prelude}\n${lines.join('\n')}`, expectations };
}

/** What a program reported through `__doc`, by line. */
export function reported(stdout: string): Map<number, unknown> {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('@@doc '));
  return new Map(line ? (JSON.parse(line.slice(6)) as [number, unknown][]) : []);
}
