/**
 * What the page's supabase-js gets instead of its auth, realtime, storage and functions clients
 * (gatsby-node.ts aliases those four packages here in the browser bundles; they were 44 of its
 * 51 KB gzip). The page only inserts through PostgREST with the anon key as `accessToken`, so no
 * auth client is built; supabase-js still constructs a realtime and a storage client and sets the
 * realtime token, which these classes accept. Anything else throws.
 */
const UNAVAILABLE =
  "is not part of this page's supabase-js (src/lib/supabase-rest-only): the page only inserts through PostgREST.";

function unavailable(what: string): never {
  throw new Error(`${what} ${UNAVAILABLE}`);
}

export class RealtimeClient {
  constructor(_endpoint?: string, _options?: object) {}
  setAuth(): Promise<void> {
    return Promise.resolve();
  }
  channel(): never {
    return unavailable("The realtime client");
  }
}

export class StorageClient {
  constructor(_url?: string, _headers?: object, _fetch?: unknown, _options?: object) {}
  from(): never {
    return unavailable("The storage client");
  }
}

export class FunctionsClient {
  constructor(_url?: string, _options?: object) {}
  invoke(): never {
    return unavailable("The functions client");
  }
}

export class AuthClient {
  constructor(_options?: object) {
    unavailable("The auth client");
  }
}

export class StorageApiError extends Error {}
export class FunctionsError extends Error {}
export class FunctionsFetchError extends FunctionsError {}
export class FunctionsHttpError extends FunctionsError {}
export class FunctionsRelayError extends FunctionsError {}
export const FunctionRegion = {};

/** The packages replaced by this module in the page's bundles. */
export const UNUSED_SUPABASE_PACKAGES = [
  "@supabase/auth-js",
  "@supabase/realtime-js",
  "@supabase/storage-js",
  "@supabase/functions-js",
] as const;
