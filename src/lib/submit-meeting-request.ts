/**
 * The page's real insert (the submit path's chunk, loaded when the visitor nears the form): the
 * `contacts` row through supabase-js's REST client (its other clients are stand-ins:
 * src/lib/supabase-rest-only/), with the page proof's header, and failures explained for whoever
 * opens the browser console.
 */
import type { SupabaseClient } from "@supabase/supabase-js";
import { CAMPAIGN_HEADER, type SupabaseEndpoint } from "./contacts-warm-up";
import {
  createFormProof,
  FORM_PROOF_HEADER,
  isFormChallenge,
  newTicket,
  type FormChallenge,
} from "./form-proof";
import { campaignFrom, mayCount } from "./site-analytics";
import { solveInWorker } from "./solve-in-worker";

/** The row the form inserts into `contacts`. */
export type ContactRecord = {
  name: string;
  email: string;
  organization: string;
  message: string;
};

/** How long a visitor waits for the database before the form gives up and keeps their answers. */
export const SUBMIT_TIMEOUT_MS = 15_000;

export class MeetingRequestError extends Error {
  override name = "MeetingRequestError";
}

/** The settings baked into the page at build time (Gatsby inlines GATSBY_* variables). */
export function connectionFromBuild(): SupabaseEndpoint {
  return {
    url: process.env.GATSBY_SUPABASE_URL ?? "",
    anonKey: process.env.GATSBY_SUPABASE_ANON_KEY ?? "",
  };
}

let supabaseModule: Promise<typeof import("@supabase/supabase-js")> | undefined;
const clients = new Map<string, SupabaseClient>();

/** Loads supabase-js (in this chunk, run when the visitor reaches the form); a failure is retried. */
export function loadSupabase(): Promise<typeof import("@supabase/supabase-js")> {
  supabaseModule ??= import(/* webpackChunkName: "submit-path" */ "@supabase/supabase-js").catch(
    (error: unknown) => {
      supabaseModule = undefined;
      throw error;
    },
  );
  return supabaseModule;
}

async function clientFor({ url, anonKey }: SupabaseEndpoint): Promise<SupabaseClient> {
  const cacheKey = `${url}\n${anonKey}`;
  const existing = clients.get(cacheKey);
  if (existing) return existing;
  const { createClient } = await loadSupabase();
  // No sign-in (spec, section 4): the bearer token is the anon key. Given as `accessToken`,
  // supabase-js builds no auth client, whose start (session recovery, a lock) the insert would wait for.
  const client = createClient(url, anonKey, { accessToken: async () => anonKey });
  clients.set(cacheKey, client);
  return client;
}

/** The connection the page proof talks to: the insert's (set by startFormProof or the insert). */
let proofConnection: SupabaseEndpoint | undefined;

/** POSTs to a page proof's database function (`/rest/v1/rpc/<name>`) as anon; its JSON answer. */
async function callFunction(name: string, args: object): Promise<unknown> {
  const connection = proofConnection ?? connectionFromBuild();
  const response = await fetch(`${connection.url}/rest/v1/rpc/${name}`, {
    method: "POST",
    headers: {
      apikey: connection.anonKey,
      Authorization: `Bearer ${connection.anonKey}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify(args),
  });
  if (!response.ok)
    throw new Error(
      `rpc/${name} answered HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`,
    );
  return response.json();
}

/** The page's one proof of origin (src/lib/form-proof.ts), solved in a Web Worker. */
const formProof = createFormProof({
  fetchChallenge: async () => {
    const challenge = await callFunction("form_challenge", {});
    if (!isFormChallenge(challenge))
      throw new Error(
        `rpc/form_challenge answered no ALTCHA challenge: ${JSON.stringify(challenge).slice(0, 200)}`,
      );
    return challenge satisfies FormChallenge;
  },
  solve: solveInWorker,
  confirm: async (ticket, proof) => {
    await callFunction("confirm_form_proof", { ticket, proof });
  },
  now: () => performance.now(),
  newTicket,
  // unref (Node only): a pending refresh must not keep a test process alive.
  later: (task, delayMs) => void (setTimeout(task, delayMs) as { unref?: () => void }).unref?.(),
  log: (message, cause) => console.info(message, cause instanceof Error ? cause.message : cause),
});

/** Starts the page proof (at the form's first focus); the submit never waits for it. */
export function startFormProof(connection: SupabaseEndpoint = connectionFromBuild()): void {
  proofConnection = connection;
  if (!describeConnectionProblem(connection)) formProof.start();
}

/** The insert's headers beyond supabase-js's own, as ready now (the warm-up sends the same names). */
export function contactsInsertHeaders(): Record<string, string> {
  return { [FORM_PROOF_HEADER]: formProof.header() };
}

/**
 * The insert's x-campaign: the visit's campaign as the visit counter files it (src/lib/site-analytics.ts),
 * "source/medium/campaign"; empty without one, or when the visit may not be counted.
 */
export function campaignHeaderValue(win: Window | undefined = globalThis.window): string {
  const nav = win?.navigator as (Navigator & { globalPrivacyControl?: boolean }) | undefined;
  if (!win || !nav || !mayCount(nav, (win as { doNotTrack?: string }).doNotTrack)) return "";
  const { source, medium, campaign } = campaignFrom(win.location.search);
  return source || medium || campaign ? `${source}/${medium}/${campaign}` : "";
}

/** The problem with the build's Supabase settings, or undefined when they look usable. */
export function describeConnectionProblem(connection: SupabaseEndpoint): string | undefined {
  const missing: string[] = [];
  if (!connection.url) missing.push("GATSBY_SUPABASE_URL");
  if (!connection.anonKey) missing.push("GATSBY_SUPABASE_ANON_KEY");
  if (missing.length > 0) {
    return `Meeting requests cannot be sent: this page was built without ${missing.join(" and ")}. Rebuild the site with both set (see .env.example).`;
  }
  try {
    const parsed = new URL(connection.url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error("not http");
  } catch {
    return `Meeting requests cannot be sent: GATSBY_SUPABASE_URL is not an http(s) URL ("${connection.url}"). Rebuild the site with the project's API URL.`;
  }
  return undefined;
}

/**
 * Stores one meeting request; rejects with a MeetingRequestError on any failure, including no
 * answer within the timeout. No `.select()`: the anon role may insert but never read. A stored
 * insert spends its proof, and its pending ticket is confirmed once the proof is solved.
 */
export async function insertContactRecord(
  record: ContactRecord,
  connection: SupabaseEndpoint = connectionFromBuild(),
): Promise<void> {
  const configurationProblem = describeConnectionProblem(connection);
  if (configurationProblem) throw new MeetingRequestError(configurationProblem);

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SUBMIT_TIMEOUT_MS);
  try {
    let client: SupabaseClient;
    try {
      client = await clientFor(connection);
    } catch (error) {
      throw new MeetingRequestError(
        "Meeting request not sent: the Supabase client could not be loaded.",
        { cause: error },
      );
    }
    proofConnection = connection;
    const headers: Record<string, string> = {
      ...contactsInsertHeaders(),
      [CAMPAIGN_HEADER]: campaignHeaderValue(),
    };
    // supabase-js adds apikey, Authorization, Content-Type, X-Client-Info and Content-Profile:
    // the warm-up (contacts-warm-up.ts) sends the same names, so its preflight serves this.
    let insert = client.from("contacts").insert(record);
    for (const [name, value] of Object.entries(headers)) insert = insert.setHeader(name, value);
    const { error, status } = await insert.abortSignal(controller.signal);
    formProof.sent(headers[FORM_PROOF_HEADER] ?? "", !error);
    if (error) {
      const timedOut = controller.signal.aborted;
      const message = diagnoseFailure(status, error, connection.url, timedOut);
      throw new MeetingRequestError(message, { cause: error });
    }
  } finally {
    clearTimeout(timer);
  }
}

function diagnoseFailure(
  status: number,
  error: { message: string; code?: string },
  url: string,
  timedOut: boolean,
): string {
  const code = error.code ? `, code ${error.code}` : "";
  if (timedOut) {
    return `Meeting request abandoned: ${url} did not answer within ${SUBMIT_TIMEOUT_MS / 1000} s.`;
  }
  if (status === 0) {
    return `Meeting request not sent: ${url} could not be reached (${error.message}).`;
  }
  if (status === 401 || status === 403) {
    return `Meeting request refused (HTTP ${status}${code}): ${error.message}. Check that GATSBY_SUPABASE_ANON_KEY is the anon key of the Supabase project at ${url}, that the contacts migration is applied, then rebuild the site.`;
  }
  if (status === 404) {
    return `Meeting request refused (HTTP 404${code}): the contacts table was not found at ${url}. Apply supabase/migrations/ to that project.`;
  }
  if (error.code === "PT429") {
    return `Meeting request refused (HTTP ${status}, code PT429): too many requests from this e-mail address in the last hour.`;
  }
  return `Meeting request refused (HTTP ${status}${code}): ${error.message}`;
}
