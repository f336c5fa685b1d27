/// <reference types="vite/client" />
// The parity page (parity.html): loads gpu.js, then the repository's gpu-vs-cpu parity spec files
// (vitest files, run through ./vitestShim.ts), runs them on this browser's gpu device and
// publishes the results on `window.parity` for test/page.test.ts.
import { loadGpu } from '@wiregrad/autograd';
import { type TestResult, runRegistered } from './vitestShim.js';

/**
 * Note [Parity specs in the browser]
 * The gpu-vs-cpu parity specs (packages/tensor/src/backends/gpu/*Parity.test.ts and
 * packages/autograd/src/**\/*gpuParity.test.ts) run unchanged in Chromium: this page imports
 * them by glob, so a new parity file of that name joins by itself; Vite aliases `vitest` to a
 * shim whose describe/it register tests and whose expect is vitest's own (@vitest/expect on
 * chai). They must stay browser-clean: no `node:` modules, no process.env.
 */
const SPECS = import.meta.glob([
  '../../../../packages/tensor/src/backends/gpu/*Parity.test.ts',
  '../../../../packages/autograd/src/**/*gpuParity.test.ts',
]);

export interface ParityReport {
  done: boolean;
  error: string | null;
  mode: string | null;
  accelerated: boolean | null;
  files: string[];
  results: TestResult[];
}

declare global {
  interface Window {
    parity: ParityReport;
  }
}

const report: ParityReport = { done: false, error: null, mode: null, accelerated: null, files: [], results: [] };
window.parity = report;

function show(r: TestResult): void {
  const li = document.createElement('li');
  li.className = r.ok ? 'pass' : 'fail';
  li.textContent = `${r.ok ? '✓' : '✗'} ${r.name}${r.error ? ` — ${r.error}` : ''}`;
  document.getElementById('results')?.append(li);
  const failed = report.results.filter((x) => !x.ok).length;
  const summary = document.getElementById('summary');
  if (summary) summary.textContent = `${report.results.length} run, ${failed} failed`;
}

async function main(): Promise<void> {
  const info = await loadGpu(() => import('gpu.js'));
  report.mode = info.mode;
  report.accelerated = info.accelerated;
  const mode = document.getElementById('mode');
  if (mode) mode.textContent = `${info.mode}${info.accelerated ? '' : ' (not accelerated)'}`;
  for (const [file, load] of Object.entries(SPECS)) {
    report.files.push(file.replace(/^(\.\.\/)+/, ''));
    await load();
  }
  await runRegistered((r) => {
    report.results.push(r);
    show(r);
  });
}

main().then(
  () => {
    report.done = true;
  },
  (e: unknown) => {
    report.error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    report.done = true;
    console.error(e);
  },
);
