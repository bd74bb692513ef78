import path from "node:path";
import dotenv from "dotenv";

export type BuildMode = "development" | "production";

/**
 * Reads `.env.<mode>` then `.env` from the project root into process.env, the way Gatsby's
 * docs recommend. Values already in the process environment always win: dotenv never overrides.
 */
export function loadEnvFiles(
  mode: BuildMode,
  projectRoot: string = path.resolve(__dirname, ".."),
): void {
  dotenv.config({ path: path.join(projectRoot, `.env.${mode}`), quiet: true });
  dotenv.config({ path: path.join(projectRoot, ".env"), quiet: true });
}

/** True when a Supabase URL points at this machine (the embedded backend or `supabase start`). */
export function isLocalUrl(url: string): boolean {
  try {
    const { hostname } = new URL(url);
    return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
  } catch {
    return false;
  }
}

export function portOf(url: string, fallback: number): number {
  try {
    const parsed = new URL(url);
    return parsed.port ? Number(parsed.port) : fallback;
  } catch {
    return fallback;
  }
}
