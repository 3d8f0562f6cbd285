"use strict"
// Writes jest's pass/fail counts to the file named by JEST_COUNTS_FILE. jest's own --json output cannot be used:
// it crashes on failures that carry circular objects (axios errors), and then no count at all survives.
const fs = require("node:fs")

class CountReporter {
  onRunComplete(_contexts, results) {
    const file = process.env.JEST_COUNTS_FILE
    if (!file) return
    const counts = {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      // A suite that fails to load (syntax error, missing module) runs no test but is a failure all the same; one
      // whose beforeAll failed already counts its tests as failed.
      brokenSuites: results.testResults.filter((suite) => suite.testExecError && suite.numFailingTests === 0).length,
      total: results.numTotalTests,
    }
    fs.writeFileSync(file, JSON.stringify(counts))
  }
}

module.exports = CountReporter
