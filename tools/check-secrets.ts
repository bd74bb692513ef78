/**
 * `npm run check:secrets [-- public]`: fails when the built site holds a secret (see
 * build-time/public-secrets.ts). The build runs the same scan (onPostBuild); this is for a
 * folder about to be published by other means. Exit status: 0 clean, 1 secrets found, 2 nothing to scan.
 */
import fs from "node:fs";
import { findSecretsInDirectory, formatFindings } from "../build-time/public-secrets";
import { builtSiteArgument, runCli } from "./lib/cli";

async function main(): Promise<number> {
  const dir = builtSiteArgument("check:secrets");
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(`No build to scan at ${dir}: run npm run build first.`);
    return 2;
  }
  const { files, findings } = await findSecretsInDirectory(dir);
  if (findings.length > 0) {
    console.error(`Secrets found in ${dir} (${findings.length}); do not publish this build:`);
    console.error(formatFindings(findings));
    return 1;
  }
  console.log(`No secrets in ${files} files under ${dir} (only anon-role keys).`);
  return 0;
}

runCli(main);
