/**
 * One run of bench:submit cut into phases, the page's and the network's figures on one clock; the
 * line per run, and the medians of a scenario against its goal.
 */
import { median } from "../../lib/stats";
import type { LinkProfile } from "./throttled-link";

export const SCENARIOS = ["on-form", "autofill"] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What the page records, in its own time (ms since navigation start). */
export type PageObservations = {
  firstPaintMs: number | null;
  /** When the submit button was first enabled. */
  usableMs: number | null;
  /** The tap on the submit button: its click event's time stamp (the input's time). */
  tapMs: number | null;
  /** When the success toast was first in the DOM, and the frame after it; its text. */
  toastMs: number | null;
  toastFrameMs: number | null;
  toastText: string | null;
  /** Resource Timing of requests to `/rest/v1/contacts`: fetch() called, answer arrived. */
  inserts: Array<{ startMs: number; endMs: number }>;
};

/** A request to Supabase as Chromium's network events tell it, in CDP's clock (ms). */
export type NetworkRequest = {
  id: string;
  method: string;
  url: string;
  initiatorRequestId?: string;
  sentMs: number;
  finishedMs?: number;
  /** Connection set-up inside this request (DNS, TCP, TLS); 0 on an open connection. */
  connectMs: number;
};

export type RunPhases = ReturnType<typeof phasesOf>;

/** Puts the page's and the network's figures on one clock and cuts the tap → toast time into phases. */
export function phasesOf(seen: PageObservations, network: NetworkRequest[]) {
  const { tapMs, toastFrameMs, firstPaintMs, usableMs } = seen;
  if (tapMs === null || toastFrameMs === null) throw new Error("no tap or no toast recorded");
  const insert = seen.inserts.at(-1);
  const post = network
    .filter((request) => request.method === "POST" && request.finishedMs !== undefined)
    .at(-1);
  if (!insert || !post?.finishedMs) throw new Error("the insert was not seen on the network");
  const toPage = insert.endMs - post.finishedMs; // the same moment on both clocks: the answer's last byte
  const preflights = network.filter(
    (request) =>
      request.method === "OPTIONS" &&
      request.finishedMs !== undefined &&
      request.sentMs + toPage >= tapMs,
  );
  const preflight =
    preflights.find((request) => request.initiatorRequestId === post.id) ?? preflights.at(-1);
  const first = preflight ?? post;
  const wire = first.sentMs + toPage;
  const connection = first.connectMs;
  const preflightMs = preflight ? preflight.finishedMs! + toPage - wire - connection : 0;
  const postStart = preflight ? preflight.finishedMs! + toPage : wire + connection;
  return {
    firstPaintMs: firstPaintMs ?? NaN,
    usableMs: usableMs ?? NaN,
    tapMs,
    toastMs: toastFrameMs,
    tapToFetch: insert.startMs - tapMs,
    // Queueing, waiting for a connection being opened.
    fetchToWire: Math.max(0, wire - insert.startMs),
    connection,
    preflight: preflightMs,
    post: insert.endMs - postStart,
    responseToToast: toastFrameMs - insert.endMs,
    tapToToast: toastFrameMs - tapMs,
    preflights: preflights.length,
  };
}

const ms = (value: number) =>
  Number.isFinite(value) ? `${Math.round(value)} ms`.padStart(8) : "       —";

export function describeRun(run: RunPhases): string {
  return (
    `first paint ${ms(run.firstPaintMs)}, usable ${ms(run.usableMs)}, tap ${ms(run.tapMs)} | tap→fetch ${ms(run.tapToFetch)}, →wire ${ms(run.fetchToWire)}, ` +
    `connection ${ms(run.connection)}, preflight ${ms(run.preflight)}, POST ${ms(run.post)}, →toast ${ms(run.responseToToast)} | tap→toast ${ms(run.tapToToast)}, nav→toast ${ms(run.toastMs)}`
  );
}

/** The medians of a scenario's runs, and the ratio to its goal. */
export function summarise(profile: LinkProfile, scenario: Scenario, runs: RunPhases[]): string[] {
  const m = (key: keyof RunPhases) => median(runs.map((run) => run[key]));
  const twoRoundTrips = 2 * profile.rttMs;
  const floor = m("firstPaintMs") + twoRoundTrips;
  const goal =
    scenario === "on-form"
      ? `tap → toast ≤ 1.3 × two round trips (${twoRoundTrips} ms): ${(m("tapToToast") / twoRoundTrips).toFixed(2)}×`
      : `navigation → toast ≤ 1.5 × (first paint + two round trips = ${Math.round(floor)} ms): ${(m("toastMs") / floor).toFixed(2)}×`;
  const preflights = runs.filter((run) => run.preflights > 0).length;
  return [
    `  median of ${runs.length}: first paint ${ms(m("firstPaintMs"))}, button usable ${ms(m("usableMs"))}, tap ${ms(m("tapMs"))}`,
    `    tap → fetch() ${ms(m("tapToFetch"))}`,
    `    fetch() → on the wire ${ms(m("fetchToWire"))}`,
    `    connection set-up (TCP+TLS) ${ms(m("connection"))}`,
    `    preflight ${ms(m("preflight"))} (runs with a preflight: ${preflights}/${runs.length})`,
    `    POST ${ms(m("post"))}`,
    `    response → toast on screen ${ms(m("responseToToast"))}`,
    `    tap → toast ${ms(m("tapToToast"))}; navigation → toast ${ms(m("toastMs"))}`,
    `    goal: ${goal}`,
  ];
}
