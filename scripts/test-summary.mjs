#!/usr/bin/env node
// Prints the plain closing line "N passed, N failed, N skipped" from vitest's JSON report, and
// exits non-zero when any test or test file failed, so CI never passes over a failure.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-output/results.json', 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
process.stdout.write(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped\n`,
);
process.exit(report.numFailedTests > 0 || report.numFailedTestSuites > 0 || report.success === false ? 1 : 0);
