"use strict"
// Writes jest's pass/fail counts, and a short digest of each failure, to the file named by JEST_COUNTS_FILE. jest's
// own --json output cannot be used: it crashes on failures that carry circular objects (axios errors), and then no
// count at all survives. The digest is printed again at the very end of `npm test`, next to the closing line: a
// failure's message is otherwise buried under the suite's console output, thousands of lines up.
const fs = require("node:fs")
const path = require("node:path")
const { stripVTControlCharacters } = require("node:util")

/** Lines of each failure message kept in the digest: the assertion and the first frames. */
const DIGEST_LINES = 12

function firstLines(text, count) {
  return stripVTControlCharacters(text)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, count)
    .join("\n")
}

/**
 * A suite that fails to load (syntax error, missing module) runs no test but is a failure all the same; one whose
 * beforeAll failed already counts its tests as failed.
 */
function isBrokenSuite(suite) {
  return Boolean(suite.testExecError) && suite.numFailingTests === 0
}

/** One entry per failed test, and one per broken suite. */
function failureDigest(results, rootDir) {
  const failures = []
  for (const suite of results.testResults) {
    const file = path.relative(rootDir, suite.testFilePath)
    for (const test of suite.testResults) {
      if (test.status !== "failed") continue
      failures.push({ file, test: test.fullName, message: firstLines(test.failureMessages.join("\n"), DIGEST_LINES) })
    }
    if (isBrokenSuite(suite)) {
      failures.push({
        file,
        test: "(suite)",
        message: firstLines(suite.failureMessage ?? suite.testExecError.message, DIGEST_LINES),
      })
    }
  }
  return failures
}

class CountReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir
  }

  onRunComplete(_contexts, results) {
    const file = process.env.JEST_COUNTS_FILE
    if (!file) return
    const counts = {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      brokenSuites: results.testResults.filter(isBrokenSuite).length,
      total: results.numTotalTests,
      failures: failureDigest(results, this.rootDir),
    }
    fs.writeFileSync(file, JSON.stringify(counts))
  }
}

module.exports = CountReporter
