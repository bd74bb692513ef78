/** bench:submit's lines: one per run, and the medians of a scenario against its goal. */
import { median } from "../../lib/audit-summary";
import type { LinkProfile } from "../../lib/throttled-link";
import type { RunPhases } from "./phases";
import type { Scenario } from "./profiles";

const ms = (value: number) =>
  Number.isFinite(value) ? `${Math.round(value)} ms`.padStart(8) : "       —";

export function describeRun(run: RunPhases): string {
  return (
    `first paint ${ms(run.firstPaintMs)}, usable ${ms(run.usableMs)}, tap ${ms(run.tapMs)} | tap→fetch ${ms(run.tapToFetch)}, →wire ${ms(run.fetchToWire)}, ` +
    `connection ${ms(run.connection)}, preflight ${ms(run.preflight)}, POST ${ms(run.post)}, →toast ${ms(run.responseToToast)} | tap→toast ${ms(run.tapToToast)}, nav→toast ${ms(run.toastMs)}` +
    (process.env.BENCH_SUBMIT_VERBOSE ? `\n    before the tap: ${run.beforeTap.join(" ")}` : "")
  );
}

export function summarise(profile: LinkProfile, scenario: Scenario, runs: RunPhases[]): string[] {
  const m = (pick: (run: RunPhases) => number) => median(runs.map(pick));
  const twoRoundTrips = 2 * profile.rttMs;
  const lines = [
    `  median of ${runs.length}: first paint ${ms(m((run) => run.firstPaintMs))}, button usable ${ms(m((run) => run.usableMs))}, tap ${ms(m((run) => run.tapMs))}`,
    `    tap → fetch() ${ms(m((run) => run.tapToFetch))}`,
    `    fetch() → on the wire ${ms(m((run) => run.fetchToWire))}`,
    `    connection set-up (TCP+TLS) ${ms(m((run) => run.connection))}`,
    `    preflight ${ms(m((run) => run.preflight))} (runs with a preflight: ${runs.filter((run) => run.preflights > 0).length}/${runs.length})`,
    `    POST ${ms(m((run) => run.post))}`,
    `    response → toast on screen ${ms(m((run) => run.responseToToast))}`,
    `    tap → toast ${ms(m((run) => run.tapToToast))}; navigation → toast ${ms(m((run) => run.toastMs))}`,
  ];
  if (scenario === "on-form") {
    const tapToToast = m((run) => run.tapToToast);
    lines.push(
      `    goal: tap → toast ≤ 1.3 × two round trips (${twoRoundTrips} ms): ${(tapToToast / twoRoundTrips).toFixed(2)}×`,
    );
  } else {
    const floor = m((run) => run.firstPaintMs) + twoRoundTrips;
    lines.push(
      `    goal: navigation → toast ≤ 1.5 × (first paint + two round trips = ${Math.round(floor)} ms): ${(m((run) => run.toastMs) / floor).toFixed(2)}×`,
    );
  }
  return lines;
}
