// Prints "N passed, M failed" from vitest's JSON report; exits 1 when nothing ran or something failed.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-results.json';
if (!existsSync(file)) {
  console.log('0 passed, 0 failed');
  console.error(`no test report at ${file}: the test command did not reach vitest`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numFailedTestSuites ?? 0) + (report.numRuntimeErrorTests ?? 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
