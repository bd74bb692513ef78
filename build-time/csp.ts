/**
 * Content-Security-Policy values: parsing, tidying, and the rules that keep ours strict.
 * Used by the build (build-time/security-headers.ts) and by the tests that read the served header.
 */

const DIRECTIVES_WITHOUT_SOURCES = new Set([
  "upgrade-insecure-requests",
  "block-all-mixed-content",
]);

/** The policy's directives in order, each as [name, ...sources]; empty directives dropped. */
function splitDirectives(policy: string): string[][] {
  return policy
    .split(";")
    .map((directive) => directive.trim().split(/\s+/).filter(Boolean))
    .filter((tokens) => tokens.length > 0);
}

/** Collapses whitespace, drops duplicate sources, and writes 'none' for an empty source list. */
export function normalizeCsp(policy: string): string {
  return splitDirectives(policy)
    .map(([name, ...sources]) => {
      const distinct = [...new Set(sources)];
      if (distinct.length === 0 && !DIRECTIVES_WITHOUT_SOURCES.has(name!.toLowerCase()))
        distinct.push("'none'");
      return [name, ...distinct].join(" ");
    })
    .join("; ");
}

/** Directive name → source list, lower-cased names. */
export function parseCsp(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  // A browser uses the first of two directives with the same name.
  for (const [name, ...sources] of splitDirectives(policy)) {
    if (!directives.has(name!.toLowerCase())) directives.set(name!.toLowerCase(), sources);
  }
  return directives;
}

/**
 * The checks that keep the policy honest, whatever the template says: no 'unsafe-inline' or
 * 'unsafe-eval' for scripts or workers (no blob: or data: workers either), no wildcard hosts, connect-src limited to 'self' and Supabase.
 */
export function strictPolicyProblems(policy: string, origin: string): string[] {
  const directives = parseCsp(policy);
  const problems: string[] = [];
  for (const name of [
    "default-src",
    "script-src",
    "style-src-elem",
    "connect-src",
    "object-src",
    "base-uri",
    "frame-ancestors",
  ]) {
    if (!directives.has(name)) problems.push(`${name} is missing`);
  }
  // worker-src too: the page proof's Web Worker (src/lib/solve-in-worker.ts) runs a script file.
  for (const name of [
    "script-src",
    "script-src-elem",
    "script-src-attr",
    "worker-src",
    "default-src",
  ]) {
    const sources = directives.get(name) ?? [];
    for (const forbidden of [
      "'unsafe-inline'",
      "'unsafe-eval'",
      "'unsafe-hashes'",
      "*",
      "data:",
      "blob:",
      "http:",
      "https:",
    ]) {
      if (sources.some((source) => source.toLowerCase() === forbidden))
        problems.push(`${name} allows ${forbidden}`);
    }
  }
  for (const name of ["style-src", "style-src-elem", "style-src-attr"]) {
    if ((directives.get(name) ?? []).includes("'unsafe-inline'"))
      problems.push(`${name} allows 'unsafe-inline'`);
  }
  const connect = directives.get("connect-src") ?? [];
  const unexpected = connect.filter((source) => source !== "'self'" && source !== origin);
  if (unexpected.length > 0)
    problems.push(`connect-src allows more than 'self' and ${origin}: ${unexpected.join(" ")}`);
  if (!connect.includes(origin)) problems.push(`connect-src does not allow ${origin}`);
  if (!(directives.get("object-src") ?? []).includes("'none'"))
    problems.push("object-src is not 'none'");
  if (!(directives.get("frame-ancestors") ?? []).includes("'none'"))
    problems.push("frame-ancestors is not 'none'");
  return problems;
}
