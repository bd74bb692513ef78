/**
 * Finds secrets in the published folder, which anyone can download. The anon key belongs there;
 * a JWT of another role (or unreadable claims), an `sb_secret_` key, a server-only variable with a
 * value, a Postgres URL with a password or a PEM private key must never be.
 */
import { decodeJwt, SECRET_KEY_PREFIX } from "./supabase-keys";
import fs from "node:fs/promises";
import path from "node:path";
import { listFiles } from "./list-files";

export type SecretFinding = {
  /** Path relative to the scanned folder, "/"-separated. */
  file: string;
  line: number;
  kind:
    | "jwt-role"
    | "jwt-unreadable"
    | "supabase-secret-key"
    | "server-variable"
    | "postgres-password"
    | "private-key";
  /** What was found, with the secret itself shortened so the report does not repeat it. */
  detail: string;
};

/** JWT: base64url header (a JSON object, so it starts with "eyJ"), payload and signature. */
const JWT_PATTERN = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
const SUPABASE_SECRET_KEY_PATTERN = new RegExp(`${SECRET_KEY_PREFIX}[A-Za-z0-9_-]{8,}`, "g");
/** A server-only variable *with a value*: the bare name appears in supabase-js's own comments. */
const SERVER_VARIABLE_PATTERN =
  /\b(SUPABASE_SERVICE_ROLE_KEY|SUPABASE_SERVICE_KEY|SERVICE_ROLE_KEY|SUPABASE_JWT_SECRET|SUPABASE_SECRET_KEY|SUPABASE_DB_PASSWORD|SMTP_PASSWORD|NOTIFY_WEBHOOK_SECRET|NOTIFY_CHAT_WEBHOOK_URL)\b\\?["'`]?\s*[:=]\s*\\?["'`]?([^\s"'`\\,;})]{8,})/g;
const POSTGRES_URL_PATTERN = /postgres(?:ql)?:\/\/[^\s:/@'"`]+:([^\s@/'"`]+)@[^\s'"`]+/gi;
const PRIVATE_KEY_PATTERN = /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/g;

/** Shortens a secret for a report: enough to find it, not enough to use it. */
function redact(secret: string): string {
  return secret.length <= 16
    ? `${secret.slice(0, 4)}…`
    : `${secret.slice(0, 12)}…(${secret.length} chars)`;
}

/** The patterns besides JWTs, each with what it found, the secret shortened. */
const PATTERNS: ReadonlyArray<
  [RegExp, SecretFinding["kind"], (match: RegExpMatchArray) => string]
> = [
  [
    SUPABASE_SECRET_KEY_PATTERN,
    "supabase-secret-key",
    (m) => `a Supabase secret key: ${redact(m[0])}`,
  ],
  [
    SERVER_VARIABLE_PATTERN,
    "server-variable",
    (m) => `the server-only variable ${m[1]} with a value: ${redact(m[2] ?? "")}`,
  ],
  [
    POSTGRES_URL_PATTERN,
    "postgres-password",
    (m) => `a Postgres connection string with a password: ${m[0].replace(m[1] ?? "", "****")}`,
  ],
  [PRIVATE_KEY_PATTERN, "private-key", (m) => `a private key (${m[0]})`],
];

/** Findings in one file's text. */
export function findSecretsInText(text: string, file = ""): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const add = (index: number, kind: SecretFinding["kind"], detail: string): void => {
    findings.push({ file, line: text.slice(0, index).split("\n").length, kind, detail });
  };
  for (const match of text.matchAll(JWT_PATTERN)) {
    const decoded = decodeJwt(match[0]);
    if (!decoded || decoded.payload?.role === "anon") continue;
    const role = JSON.stringify(decoded.payload?.role ?? null);
    const what = decoded.payload
      ? `a JWT with role ${role} (only "anon" may be published)`
      : "a JWT whose claims cannot be decoded";
    add(
      match.index,
      decoded.payload ? "jwt-role" : "jwt-unreadable",
      `${what}: ${redact(match[0])}`,
    );
  }
  for (const [pattern, kind, describe] of PATTERNS)
    for (const match of text.matchAll(pattern)) add(match.index ?? 0, kind, describe(match));
  return findings;
}

/** Scans every file under dir, whatever its type, read as latin1 so binary files are searched too. */
export async function findSecretsInDirectory(
  dir: string,
): Promise<{ files: number; findings: SecretFinding[] }> {
  const files = await listFiles(dir);
  const findings: SecretFinding[] = [];
  for (const file of files) {
    const text = (await fs.readFile(path.join(dir, file))).toString("latin1");
    findings.push(...findSecretsInText(text, file));
  }
  return { files: files.length, findings };
}

export function formatFindings(findings: readonly SecretFinding[]): string {
  return findings.map((finding) => `${finding.file}:${finding.line}: ${finding.detail}`).join("\n");
}
