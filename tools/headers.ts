/**
 * `npm run headers [-- public]`: rewrites public/_headers from static/_headers for an existing
 * build (the build itself does this in onPostBuild). Uses GATSBY_SUPABASE_URL from the
 * environment, which must be the value the build used.
 */
import path from "node:path";
import { writeSecurityHeaders } from "../build-time/security-headers";
import { builtSiteArgument, runCli } from "./lib/cli";

async function main(): Promise<void> {
  const publicDir = builtSiteArgument("headers");
  const result = await writeSecurityHeaders({
    publicDir,
    supabaseUrl: process.env.GATSBY_SUPABASE_URL,
  });
  console.log(
    `Wrote ${path.relative(process.cwd(), result.outputPath)}: ${result.scriptHashes.length} script, ${result.styleHashes.length} style and ${result.styleAttributeHashes.length} style-attribute hashes from ${result.htmlFiles.length} HTML files.`,
  );
  console.log(`Content-Security-Policy: ${result.contentSecurityPolicy}`);
}

runCli(main);
