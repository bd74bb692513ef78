/**
 * Stand-ins for the modules that send or announce a meeting request, and for "gatsby"'s `graphql`
 * tag (cms/preview-bundle.ts swaps them in): the preview's form never sends.
 */
import type * as submit from "../../src/lib/submit-meeting-request";
import type * as toasts from "../../src/lib/toasts";

const NOT_SENT = "The preview in /admin/ does not send meeting requests.";

export const graphql = (strings: TemplateStringsArray, ...values: unknown[]) =>
  String.raw(strings, ...values);

export const loadSupabase: typeof submit.loadSupabase = () => Promise.reject(new Error(NOT_SENT));
export const insertContactRecord: typeof submit.insertContactRecord = () =>
  Promise.reject(new Error(NOT_SENT));
/** No Supabase settings: nothing keeps a connection warm (src/lib/keep-submit-warm.ts). */
export const connectionFromBuild: typeof submit.connectionFromBuild = () => ({
  url: "",
  anonKey: "",
});
export const describeConnectionProblem: typeof submit.describeConnectionProblem = () => NOT_SENT;

export const prepareToasts: typeof toasts.prepareToasts = async () => undefined;
