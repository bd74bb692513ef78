/**
 * `npm run check:secrets [-- public]`: fails when the built site holds a secret (see
 * build-time/public-secrets.ts). Run it after `gatsby build`, before publishing.
 * Exit status: 0 clean, 1 secrets found, 2 nothing to scan.
 */
import fs from "node:fs";
import path from "node:path";
import { findSecretsInDirectory, formatFindings } from "../build-time/public-secrets";

async function main(): Promise<void> {
  const dir = path.resolve(process.argv[2] ?? "public");
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(`No build to scan at ${dir}: run npm run build first.`);
    process.exit(2);
  }
  const { files, findings } = await findSecretsInDirectory(dir);
  if (findings.length > 0) {
    console.error(`Secrets found in ${dir} (${findings.length}); do not publish this build:`);
    console.error(formatFindings(findings));
    process.exit(1);
  }
  console.log(`No secrets in ${files} files under ${dir} (only anon-role keys).`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
