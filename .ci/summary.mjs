// Prints "N passed, M failed" summed over vitest's JSON reports (the test command's, the smoke
// run's) and the steps named by `--failed STEP` (a step outside vitest that failed, counted
// once each); exits 1 when a report is missing, nothing passed or something failed.
// Usage: node .ci/summary.mjs REPORT... [--failed STEP]...
import { existsSync, readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const reports = [];
const failedSteps = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--failed') failedSteps.push(args[++i] ?? 'a step');
  else reports.push(args[i]);
}
if (reports.length === 0) reports.push('.vitest-results.json');

let passed = 0;
let failed = failedSteps.length;
for (const step of failedSteps) console.error(`failed: ${step}`);
for (const file of reports) {
  if (!existsSync(file)) {
    console.error(`no test report at ${file}: its run did not reach vitest`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(file, 'utf8'));
  passed += report.numPassedTests ?? 0;
  // a failed spec counts once: numFailedTestSuites counts every describe block around it too (one
  // failed spec in a nested describe read "3 failed"); a file that failed with no failed spec (it
  // did not load, or a hook threw) counts once
  const failedFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
  );
  failed += (report.numFailedTests ?? 0) + failedFiles.length;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
