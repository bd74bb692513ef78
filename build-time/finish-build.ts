/**
 * The passes that finish a build, in order, on the pages Gatsby wrote to public/ (run from
 * gatsby-node.ts onPostBuild, after gatsby-plugin-sitemap and gatsby-plugin-robots-txt have
 * written sitemap-index.xml and robots.txt: plugins' hooks run before the site's own).
 *
 *   1. page scripts (page-scripts.ts): the pages start their own small script after the first
 *      paint, instead of Gatsby's browser runtime;
 *   2. security headers (security-headers.ts): the CSP hashes the final HTML, so it comes after 1;
 *   3. secret scan (public-secrets.ts): last, once every file is in place.
 *
 * Each pass throws with a message for the person reading the build log; the build stops there.
 */
import { startPageBootInDirectory } from "./page-scripts";
import { findSecretsInDirectory, formatFindings } from "./public-secrets";
import { writeSecurityHeaders } from "./security-headers";

export type FinishBuildOptions = {
  publicDir: string;
  /** GATSBY_SUPABASE_URL as the build used it: the only origin connect-src allows besides 'self'. */
  supabaseUrl: string | undefined;
  /** GATSBY_SUPABASE_ANON_KEY as the build used it: the page's loader warms the insert with it. */
  supabaseAnonKey?: string;
  /** One line per finished pass. */
  log: (line: string) => void;
};

export class SecretsInBuildError extends Error {
  override name = "SecretsInBuildError";
}

export async function finishBuild({
  publicDir,
  supabaseUrl,
  supabaseAnonKey,
  log,
}: FinishBuildOptions): Promise<void> {
  const pages = await startPageBootInDirectory(
    publicDir,
    supabaseUrl && supabaseAnonKey ? { url: supabaseUrl, anonKey: supabaseAnonKey } : undefined,
  );
  log(`${pages} pages start their own script after the first paint, without Gatsby's runtime.`);

  const headers = await writeSecurityHeaders({ publicDir, supabaseUrl });
  log(
    `Wrote ${publicDir}/_headers: the Content-Security-Policy allows ${headers.scriptHashes.length} inline scripts and ${headers.styleHashes.length} inline styles by hash.`,
  );

  const secrets = await findSecretsInDirectory(publicDir);
  if (secrets.findings.length > 0) {
    throw new SecretsInBuildError(
      `Secrets found in ${publicDir}/; do not publish this build:\n${formatFindings(secrets.findings)}`,
    );
  }
  log(`No secrets in the ${secrets.files} files of ${publicDir}/.`);
}
