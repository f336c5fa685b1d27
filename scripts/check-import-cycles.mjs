// Checks that the modules of a package import each other without a circle: a circle makes
// module order matter at load time and keeps a concept from being read (or tested) on its own.
// Every relative import counts, `import type` and re-exports included (a circle of types is still
// a circle of concepts); imports of other packages do not. Specs and spec helpers are left out.
//
// Fails (exit 1) and prints each circle found, as `a.ts -> b.ts -> a.ts`.
// Usage: node scripts/check-import-cycles.mjs <src folder>... (from `pnpm lint`, for the packages
// listed there).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SPEC = /(\.test\.ts|\/__tests__\/.*)$/;

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.d.ts') && !SPEC.test(path) ? [path] : [];
  });
}

/** The files of the same package `file` imports (`./x.js` is `./x.ts`). */
function imports(file, known) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
    .filter((path) => known.has(path));
}

/** Every elementary circle's first sighting by a depth-first walk (enough to fail on, and to fix one by one). */
function circles(graph) {
  const found = [];
  const state = new Map(); // file -> 'open' | 'done'
  const path = [];
  const visit = (file) => {
    state.set(file, 'open');
    path.push(file);
    for (const next of graph.get(file)) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node scripts/check-import-cycles.mjs <src folder>...');
  process.exit(2);
}
let failed = false;
for (const dir of dirs) {
  const files = sources(resolve(dir));
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, imports(f, known)]));
  const found = circles(graph);
  for (const c of found) console.error(`${dir}: import circle ${c.map((f) => relative(dir, f)).join(' -> ')}`);
  if (found.length > 0) failed = true;
  else console.log(`check-import-cycles: ${dir}: ${files.length} modules, no import circle`);
}
process.exit(failed ? 1 : 0);
