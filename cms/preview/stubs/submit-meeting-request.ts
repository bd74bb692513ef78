/**
 * The preview's stand-in for src/lib/submit-meeting-request.ts: the form in the CMS preview shows
 * how it looks and never sends a request (nor bundles supabase-js into /admin/).
 */
import type * as real from "../../../src/lib/submit-meeting-request";

const NOT_SENT = "The preview in /admin/ does not send meeting requests.";

export const loadSupabase: typeof real.loadSupabase = () => Promise.reject(new Error(NOT_SENT));
export const insertContactRecord: typeof real.insertContactRecord = () =>
  Promise.reject(new Error(NOT_SENT));
/** The preview has no Supabase settings: nothing keeps a connection warm (src/lib/keep-submit-warm.ts). */
export const connectionFromBuild: typeof real.connectionFromBuild = () => ({
  url: "",
  anonKey: "",
});
export const describeConnectionProblem: typeof real.describeConnectionProblem = () => NOT_SENT;
