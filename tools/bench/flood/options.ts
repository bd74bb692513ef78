/** `npm run bench:flood` options (docs/scripts.md) and the case each run measures. */
import { parseArgs } from "node:util";

import { wholeNumberOption } from "../../lib/cli";

const MODES = ["direct", "solving", "venue"] as const;
type FloodMode = (typeof MODES)[number];

export type FloodOptions = ReturnType<typeof parseFloodOptions>;

export function parseFloodOptions(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      mode: { type: "string", default: "direct" },
      "reuse-build": { type: "boolean", default: false },
      flood: { type: "string" },
      addresses: { type: "string" },
      seconds: { type: "string" },
      real: { type: "string" },
      every: { type: "string" },
    },
  });
  const mode = values.mode as FloodMode;
  if (!MODES.includes(mode))
    throw new Error(`--mode is one of ${MODES.join(", ")} (got "${values.mode}").`);
  const addresses = wholeNumberOption(values.addresses, "addresses", 1);
  if (addresses > 20)
    throw new Error(`--addresses goes up to 20 (127.0.0.10–29); got ${addresses}.`);
  const real = wholeNumberOption(values.real, "real", mode === "venue" ? 40 : 10);
  const paced = values.every !== undefined || mode === "venue";
  return {
    mode,
    reuseBuild: values["reuse-build"],
    /** direct: how many POSTs. */
    flood: wholeNumberOption(values.flood, "flood", 3000),
    /** solving: 1 (127.0.0.2) or more source addresses (127.0.0.10 onwards), for how long. */
    addresses,
    seconds: wholeNumberOption(values.seconds, "seconds", 180),
    /** Real visitors through the page. */
    real,
    /** Seconds between two visitors' starts; undefined: one after another. */
    every: paced ? wholeNumberOption(values.every, "every", 15) : undefined,
    /** venue: how many visitors ask the same question. */
    sameQuestion: Math.min(real, 8),
    /** The longest wait for the requests to reach staff after the last submission. */
    waitMinutes: 20,
  };
}

/** The case number and words for a run. */
export function caseName({ mode, addresses }: FloodOptions): string {
  if (mode === "direct") return "case 3: direct POSTs without the page proof";
  if (mode === "venue") return "case 5: the venue, no attacker";
  if (addresses === 1) return "case 1: solving the page proof, one address";
  return `case 2: solving the page proof, ${addresses} addresses`;
}
