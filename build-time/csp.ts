/** Content-Security-Policy values: parsing, tidying, and the rules that keep ours strict. */

/** The policy's directives in order, each as [name, ...sources]; empty directives dropped. */
const splitDirectives = (policy: string) =>
  policy
    .split(";")
    .map((directive) => directive.trim().split(/\s+/).filter(Boolean))
    .filter((tokens): tokens is [string, ...string[]] => tokens.length > 0);

/** Collapses whitespace, drops duplicate sources, and writes 'none' for an empty source list. */
export function normalizeCsp(policy: string): string {
  return splitDirectives(policy)
    .map(([name, ...sources]) => {
      const distinct = [...new Set(sources)];
      const takesSources = !/^(upgrade-insecure-requests|block-all-mixed-content)$/i.test(name);
      return [name, ...(distinct.length === 0 && takesSources ? ["'none'"] : distinct)].join(" ");
    })
    .join("; ");
}

/** Directive name (lower-cased) → source list; a browser uses the first of two with one name. */
export function parseCsp(policy: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const [name, ...sources] of splitDirectives(policy))
    if (!directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), sources);
  return directives;
}

const REQUIRED =
  "default-src script-src style-src-elem connect-src object-src base-uri frame-ancestors".split(
    " ",
  );
/** worker-src too: the page proof's Web Worker (src/lib/solve-in-worker.ts) runs a script file. */
const SCRIPT_DIRECTIVES = "script-src script-src-elem script-src-attr worker-src default-src".split(
  " ",
);
const LOOSE_SCRIPT_SOURCES =
  "'unsafe-inline' 'unsafe-eval' 'unsafe-hashes' * data: blob: http: https:".split(" ");

/** What makes a policy too loose, whatever the template says. */
export function strictPolicyProblems(policy: string, origin: string): string[] {
  const directives = parseCsp(policy);
  const sources = (name: string) => directives.get(name) ?? [];
  const missing = REQUIRED.filter((name) => !directives.has(name));
  const problems = missing.map((name) => `${name} is missing`);
  for (const name of SCRIPT_DIRECTIVES)
    for (const loose of LOOSE_SCRIPT_SOURCES)
      if (sources(name).some((source) => source.toLowerCase() === loose))
        problems.push(`${name} allows ${loose}`);
  for (const name of ["style-src", "style-src-elem", "style-src-attr"])
    if (sources(name).includes("'unsafe-inline'")) problems.push(`${name} allows 'unsafe-inline'`);
  const unexpected = sources("connect-src").filter(
    (source) => source !== "'self'" && source !== origin,
  );
  if (unexpected.length > 0)
    problems.push(`connect-src allows more than 'self' and ${origin}: ${unexpected.join(" ")}`);
  if (!sources("connect-src").includes(origin))
    problems.push(`connect-src does not allow ${origin}`);
  for (const name of ["object-src", "frame-ancestors"])
    if (!sources(name).includes("'none'")) problems.push(`${name} is not 'none'`);
  return problems;
}
