// Checks that the documentation points at things that exist in the repository:
// - in docs/*.md, every `path/with/a/slash` in backticks that starts at a top-level entry of the
//   repository (packages/..., apps/..., scripts/..., docs/...) names a file or folder that exists
//   (docs/concepts.md maps PyTorch's concepts to files: a file moved or renamed shows here);
// - in docs/*.md and every README.md, every relative Markdown link [text](target) resolves to a
//   file or folder inside the repository (a link to ../shared/... works on one machine only).
//
// Fails (exit 1) listing each broken path with its file and line.
// Usage: node scripts/check-doc-paths.mjs [repository folder] (from `pnpm lint`).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const ROOT = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));

function files() {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out
    .split('\0')
    .filter((f) => (/^docs\/.*\.md$/.test(f) || /(^|\/)README\.md$/.test(f)) && existsSync(join(ROOT, f)));
}

/** top-level entries of the repository, so `packages/x` is taken for a path and `@wiregrad/nn/optim` or `a/b` prose is not */
const TOP = new Set(readdirSync(ROOT).filter((e) => !e.startsWith('.') && e !== 'node_modules'));
const CODE_PATH = /`([A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.*-]+)+\/?)`/g;
const LINK = /\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

const problems = [];
let checked = 0;
for (const file of files()) {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const inDocs = file.startsWith('docs/');
  let fenced = false;
  lines.forEach((line, i) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced) return; // code blocks show commands and layouts, not links
    const where = `${file}:${i + 1}`;
    if (inDocs)
      for (const [, path] of line.matchAll(CODE_PATH)) {
        if (!TOP.has(path.split('/')[0])) continue;
        checked++;
        if (!existsSync(join(ROOT, path))) problems.push(`${where}: \`${path}\` does not exist`);
      }
    for (const [, target] of line.matchAll(LINK)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue; // a URL or an anchor
      const path = decodeURIComponent(target.split('#')[0]);
      const abs = resolve(ROOT, dirname(file), path);
      checked++;
      if (relative(ROOT, abs).split(sep)[0] === '..')
        problems.push(`${where}: the link ${target} points outside the repository`);
      else if (!existsSync(abs)) problems.push(`${where}: the link ${target} leads nowhere`);
    }
  });
}

if (problems.length > 0) {
  console.error(`check-doc-paths: ${problems.length} broken\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log(`check-doc-paths: ${checked} paths and links in the documentation, all there`);
