// Fails when a test file of a workspace package is not type-checked: every *.test.ts, and every
// .ts file under a test/ or __tests__/ folder, of packages/* and apps/* must fall under the
// `include` (and outside the `exclude`) of its package's tsconfig.json, which `pnpm typecheck`
// runs. vitest strips types without checking them, so a spec outside `include` can drift from
// the API it tests and still pass. Usage: node scripts/check-typechecked.mjs (from `pnpm lint`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.turbo', 'out', 'coverage']);
const TS = /\.(ts|mts|cts|tsx)$/;

/** Files under `dir`, as paths relative to it with '/' separators. */
function walk(dir, base = dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path, base));
    else out.push(relative(base, path).split(sep).join('/'));
  }
  return out;
}

const isTestFile = (path) =>
  TS.test(path) &&
  !path.endsWith('.d.ts') &&
  (/\.test\.[mc]?tsx?$/.test(path) || /(^|\/)(test|__tests__)\//.test(path));

/** A tsconfig include/exclude pattern as a RegExp over package-relative paths (TypeScript's rules: a pattern without wildcards names a file or a folder). */
function patternToRegExp(pattern) {
  const p = pattern.replace(/^\.\//, '').replace(/\/$/, '');
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*' && p[i + 1] === '*' && p[i + 2] === '/') {
      re += '(?:.*/)?';
      i += 2;
    } else if (c === '*' && p[i + 1] === '*') {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(/[*?]/.test(p) ? `^${re}$` : `^${re}(/.*)?$`);
}

const problems = [];
for (const group of ['packages', 'apps']) {
  if (!existsSync(join(ROOT, group))) continue;
  for (const name of readdirSync(join(ROOT, group)).sort()) {
    const dir = join(ROOT, group, name);
    const tests = existsSync(join(dir, 'package.json')) ? walk(dir).filter(isTestFile) : [];
    if (tests.length === 0) continue;
    const configPath = join(dir, 'tsconfig.json');
    if (!existsSync(configPath)) {
      problems.push(`${group}/${name}: has test files but no tsconfig.json (pnpm typecheck runs tsc -p tsconfig.json)`);
      continue;
    }
    const config = JSON.parse(readFileSync(configPath, 'utf8'));
    if (config.files !== undefined || config.extends?.startsWith('.') === false) {
      problems.push(
        `${group}/${name}/tsconfig.json: uses "files" or a package "extends": teach scripts/check-typechecked.mjs to read it`,
      );
      continue;
    }
    const include = (config.include ?? ['**/*']).map(patternToRegExp);
    const exclude = (config.exclude ?? []).map(patternToRegExp);
    for (const file of tests) {
      if (!include.some((re) => re.test(file)) || exclude.some((re) => re.test(file))) {
        problems.push(
          `${group}/${name}/${file}: not type-checked (outside the include of ${group}/${name}/tsconfig.json)`,
        );
      }
    }
  }
}

if (problems.length > 0) {
  console.error(
    `check-typechecked: ${problems.length} problem${problems.length === 1 ? '' : 's'}\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
