/** Removes the run's temporary folder (jest/temp-folder-setup.js). */
const fs = require("node:fs");

module.exports = function removeRunTempFolder() {
  const folder = process.env.JEST_RUN_TEMP_FOLDER;
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
};
