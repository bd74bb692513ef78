/**
 * The passes that finish a build on public/ (gatsby-node.ts onPostBuild), in order: page scripts,
 * then the security headers (the CSP hashes the final HTML), then the secret scan of every file.
 * Each throws with a message for the person reading the build log.
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
