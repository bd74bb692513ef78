import path from "node:path";
import dotenv from "dotenv";

/**
 * Reads `.env.<mode>` then `.env` from the project root into process.env, the way Gatsby's
 * docs recommend. Values already in the process environment always win: dotenv never overrides.
 */
export function loadEnvFiles(
  mode: "development" | "production",
  projectRoot: string = path.resolve(__dirname, ".."),
): void {
  dotenv.config({ path: path.join(projectRoot, `.env.${mode}`), quiet: true });
  dotenv.config({ path: path.join(projectRoot, ".env"), quiet: true });
}

/** True when a Supabase URL points at this machine (the embedded backend or `supabase start`). */
export function isLocalUrl(url: string): boolean {
  const hostname = URL.canParse(url) ? new URL(url).hostname : "";
  return ["127.0.0.1", "localhost", "[::1]"].includes(hostname);
}

export function portOf(url: string, fallback: number): number {
  const port = URL.canParse(url) ? new URL(url).port : "";
  return port ? Number(port) : fallback;
}
