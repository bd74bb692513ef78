/** What Chromium's network events say about the page's requests to Supabase (bench:submit). */
import type { CDPSession } from "playwright-core";
import { SUPABASE_HOST } from "./profiles";

export type NetworkRequest = {
  id: string;
  method: string;
  url: string;
  initiatorRequestId?: string;
  sentMs: number;
  finishedMs?: number;
  /** Connection set-up inside this request (DNS, TCP, TLS), ms; 0 when it used an open connection. */
  connectMs: number;
};

/** Chromium's network events for the Supabase origin, in CDP's clock (ms). */
export function recordSupabaseRequests(cdp: CDPSession): NetworkRequest[] {
  const requests = new Map<string, NetworkRequest>();
  const all: NetworkRequest[] = [];
  cdp.on("Network.requestWillBeSent", (event) => {
    if (!event.request.url.startsWith(`https://${SUPABASE_HOST}/`)) return;
    const request: NetworkRequest = {
      id: event.requestId,
      method: event.request.method,
      url: event.request.url,
      initiatorRequestId: event.initiator.requestId,
      sentMs: event.timestamp * 1000,
      connectMs: 0,
    };
    requests.set(event.requestId, request);
    all.push(request);
  });
  cdp.on("Network.responseReceived", (event) => {
    const request = requests.get(event.requestId);
    const timing = event.response.timing;
    if (!request || !timing || timing.connectStart < 0) return;
    request.connectMs =
      timing.connectEnd - (timing.dnsStart >= 0 ? timing.dnsStart : timing.connectStart);
  });
  cdp.on("Network.loadingFinished", (event) => {
    const request = requests.get(event.requestId);
    if (request) request.finishedMs = event.timestamp * 1000;
  });
  return all;
}
