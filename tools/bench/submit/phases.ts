/** One run of bench:submit cut into phases, the page's and the network's figures on one clock. */
import type { SubmitObservations } from "../submit-observer";
import type { NetworkRequest } from "./supabase-requests";

export type RunPhases = {
  firstPaintMs: number;
  usableMs: number;
  tapMs: number;
  toastMs: number;
  /** tap → fetch() called for the insert. */
  tapToFetch: number;
  /** fetch() → the first request on the wire (queueing, waiting for a connection being opened). */
  fetchToWire: number;
  connection: number;
  preflight: number;
  post: number;
  responseToToast: number;
  tapToToast: number;
  preflights: number;
  /** Requests the page sent to Supabase before the tap (warm-ups, their preflights). */
  beforeTap: string[];
};

/** Puts the page's and the network's figures on one clock and cuts the tap → toast time into phases. */
export function phasesOf(seen: SubmitObservations, network: NetworkRequest[]): RunPhases {
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
    fetchToWire: Math.max(0, wire - insert.startMs),
    connection,
    preflight: preflightMs,
    post: insert.endMs - postStart,
    responseToToast: toastFrameMs - insert.endMs,
    tapToToast: toastFrameMs - tapMs,
    preflights: preflights.length,
    beforeTap: network.map(
      (request) =>
        `${request.method} ${new URL(request.url).pathname}@${Math.round(request.sentMs + toPage)}${request.finishedMs ? `–${Math.round(request.finishedMs + toPage)}` : ""}`,
    ),
  };
}
