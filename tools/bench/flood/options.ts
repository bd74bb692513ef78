/** `npm run bench:flood` options (docs/scripts.md). */
import { parseArgs } from "node:util";

import { wholeNumberOption } from "../../lib/cli";

export type FloodMode = "direct" | "solving" | "venue";

export interface FloodOptions {
  mode: FloodMode;
  reuseBuild: boolean;
  /** direct: how many POSTs. */
  flood: number;
  /** solving: how many source addresses (1: 127.0.0.2; more: 127.0.0.10 onwards), and for how long. */
  addresses: number;
  seconds: number;
  /** Real visitors through the page: 10 one after another during an attack, 40 at the venue. */
  real: number;
  /** Seconds between two visitors' starts; undefined: one after another (the venue: 15). */
  every: number | undefined;
  /** venue: how many visitors ask the same question. */
  sameQuestion: number;
  /** The longest wait for the requests to reach staff after the last submission. */
  waitMinutes: number;
}

const MODES: readonly FloodMode[] = ["direct", "solving", "venue"];

export function parseFloodOptions(args: string[]): FloodOptions {
  const { values } = parseArgs({
    args,
    options: {
      mode: { type: "string" },
      "reuse-build": { type: "boolean" },
      flood: { type: "string" },
      addresses: { type: "string" },
      seconds: { type: "string" },
      real: { type: "string" },
      every: { type: "string" },
      "same-question": { type: "string" },
      "wait-minutes": { type: "string" },
    },
  });
  const mode = (values.mode ?? "direct") as FloodMode;
  if (!MODES.includes(mode))
    throw new Error(`--mode is one of ${MODES.join(", ")} (got "${values.mode}").`);
  const addresses = wholeNumberOption(values.addresses, "addresses", 1);
  if (addresses > 20)
    throw new Error(`--addresses goes up to 20 (127.0.0.10–29); got ${addresses}.`);
  const real = wholeNumberOption(values.real, "real", mode === "venue" ? 40 : 10);
  return {
    mode,
    reuseBuild: values["reuse-build"] ?? false,
    flood: wholeNumberOption(values.flood, "flood", 3000),
    addresses,
    seconds: wholeNumberOption(values.seconds, "seconds", 180),
    real,
    every:
      values.every === undefined && mode !== "venue"
        ? undefined
        : wholeNumberOption(values.every, "every", 15),
    sameQuestion: Math.min(real, wholeNumberOption(values["same-question"], "same-question", 8)),
    waitMinutes: wholeNumberOption(values["wait-minutes"], "wait-minutes", 20),
  };
}

/** The brief's case number and words for a run. */
export function caseName(options: FloodOptions): string {
  switch (options.mode) {
    case "direct":
      return "case 3: direct POSTs without the page proof";
    case "solving":
      return options.addresses === 1
        ? "case 1: solving the page proof, one address"
        : `case 2: solving the page proof, ${options.addresses} addresses`;
    case "venue":
      return "case 5: the venue, no attacker";
  }
}
