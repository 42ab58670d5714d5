#!/usr/bin/env node
// Prints the plain closing line "N passed, N failed, N skipped" from vitest's JSON report.
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'test-output/results.json', 'utf8'));
const skipped = report.numPendingTests + report.numTodoTests;
process.stdout.write(
  `${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped\n`,
);
