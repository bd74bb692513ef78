/**
 * Every temporary file of a test run goes into one folder, removed when the run ends: tests and
 * the processes they start create folders with fs.mkdtemp(os.tmpdir()) (databases, builds, mail
 * folders), and a test that fails half-way never reaches its own clean-up. Workers and child
 * processes inherit TMPDIR from here.
 */
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

module.exports = function createRunTempFolder() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "jest-run-"));
  process.env.JEST_RUN_TEMP_FOLDER = folder;
  process.env.TMPDIR = folder;
  process.env.TMP = folder;
  process.env.TEMP = folder;
};
