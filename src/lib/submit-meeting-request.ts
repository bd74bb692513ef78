import type { SupabaseClient } from "@supabase/supabase-js";
import type { ContactRecord } from "./meeting-request";

/** How long a visitor waits for the database before the form gives up and keeps their answers. */
export const SUBMIT_TIMEOUT_MS = 15_000;

export type SupabaseConnection = {
  url: string;
  anonKey: string;
  timeoutMs?: number;
};

/** A failed submission, with a diagnosis written for whoever opens the browser console. */
export class MeetingRequestError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MeetingRequestError";
  }
}

/** The settings baked into the page at build time (Gatsby inlines GATSBY_* variables). */
export function connectionFromBuild(): SupabaseConnection {
  return {
    url: process.env.GATSBY_SUPABASE_URL ?? "",
    anonKey: process.env.GATSBY_SUPABASE_ANON_KEY ?? "",
  };
}

let supabaseModule: Promise<typeof import("@supabase/supabase-js")> | undefined;
const clients = new Map<string, SupabaseClient>();

/**
 * Starts downloading supabase-js (a separate chunk, outside the page's initial JavaScript).
 * The form calls this when a visitor first focuses it, so the submit itself does not wait.
 */
export function loadSupabase(): Promise<typeof import("@supabase/supabase-js")> {
  supabaseModule ??= import("@supabase/supabase-js").catch((error: unknown) => {
    supabaseModule = undefined; // let a later attempt retry, e.g. after a flaky connection
    throw error;
  });
  return supabaseModule;
}

async function clientFor(connection: SupabaseConnection): Promise<SupabaseClient> {
  const cacheKey = `${connection.url}\n${connection.anonKey}`;
  const existing = clients.get(cacheKey);
  if (existing) return existing;
  const { createClient } = await loadSupabase();
  // The page has no sign-in (spec, section 4): the bearer token is the anon key, as supabase-js
  // sends it without a session. Given as `accessToken`, supabase-js builds no auth client, so the
  // first insert does not wait for one to start (session recovery, a lock, storage).
  const anonKey = connection.anonKey;
  const client = createClient(connection.url, anonKey, { accessToken: async () => anonKey });
  clients.set(cacheKey, client);
  return client;
}

/**
 * The insert request of `rows` into `contacts`: the ONE place that sets its headers. supabase-js
 * adds its own (apikey, Authorization: Bearer, Content-Type, X-Client-Info,
 * Content-Profile); any header of ours goes here, so that the warm-up (warmUpContactsInsert), which
 * sends the same request with no rows, asks the browser's CORS preflight for exactly the same
 * header names as the real insert, and a preflight it caused serves the real one.
 */
export function contactsInsertRequest(client: SupabaseClient, rows: ContactRecord | ContactRecord[], signal: AbortSignal) {
  return client.from("contacts").insert(rows).abortSignal(signal);
}

/**
 * Makes the submit find everything ready: supabase-js loaded, the client made, the connection to
 * Supabase open and in use, the server's path warm, and the CORS preflight answered (which the
 * browser keeps only 5 s, as hosted Supabase sends no Access-Control-Max-Age). It sends the
 * insert request with no rows (`[]`), which PostgREST answers with 201 and stores nothing. Never
 * rejects: a failed warm-up only means the submit does the same work itself.
 */
export async function warmUpContactsInsert(connection: SupabaseConnection = connectionFromBuild()): Promise<void> {
  if (describeConnectionProblem(connection)) return;
  try {
    const client = await clientFor(connection);
    await contactsInsertRequest(client, [], AbortSignal.timeout(connection.timeoutMs ?? SUBMIT_TIMEOUT_MS));
  } catch {
    // see above
  }
}

/** The problem with the build's Supabase settings, or undefined when they look usable. */
export function describeConnectionProblem(connection: SupabaseConnection): string | undefined {
  const missing = [
    connection.url ? undefined : "GATSBY_SUPABASE_URL",
    connection.anonKey ? undefined : "GATSBY_SUPABASE_ANON_KEY",
  ].filter((name): name is string => Boolean(name));
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
 * Stores one meeting request in the `contacts` table. Resolves when the database accepted it;
 * rejects with a MeetingRequestError on any failure, including no answer within the timeout.
 * No `.select()`: the anon role may insert but never read.
 */
export async function insertContactRecord(
  record: ContactRecord,
  connection: SupabaseConnection = connectionFromBuild(),
): Promise<void> {
  const configurationProblem = describeConnectionProblem(connection);
  if (configurationProblem) throw new MeetingRequestError(configurationProblem);

  const timeoutMs = connection.timeoutMs ?? SUBMIT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    let client: SupabaseClient;
    try {
      client = await clientFor(connection);
    } catch (error) {
      throw new MeetingRequestError("Meeting request not sent: the Supabase client could not be loaded.", { cause: error });
    }
    const { error, status } = await contactsInsertRequest(client, record, controller.signal);
    if (error) {
      throw new MeetingRequestError(diagnoseFailure(status, error, connection.url, controller.signal.aborted, timeoutMs), {
        cause: error,
      });
    }
  } finally {
    clearTimeout(timer);
  }
}

type PostgrestFailure = { message: string; code?: string; details?: string | null; hint?: string | null };

export function diagnoseFailure(
  status: number,
  error: PostgrestFailure,
  url: string,
  timedOut: boolean,
  timeoutMs: number,
): string {
  const code = error.code ? `, code ${error.code}` : "";
  if (timedOut) {
    return `Meeting request abandoned: ${url} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}.`;
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
