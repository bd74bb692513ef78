/**
 * The parts of PostgREST's and Supabase's gateway behaviour the local backend mirrors:
 * how errors look and which HTTP status each gets. Sources: PostgREST's
 * `src/PostgREST/Error.hs` (mapSQLtoHTTP) and docs/references/errors.rst, and the
 * messages Supabase's API gateway gives for a missing or wrong `apikey`.
 */

export interface ErrorBody {
  code: string;
  message: string;
  details: string | null;
  hint: string | null;
}

export interface ErrorReply {
  status: number;
  body: ErrorBody | { message: string; hint?: string };
  headers?: Record<string, string>;
}

/**
 * HTTP status for a PostgreSQL SQLSTATE, as PostgREST's mapSQLtoHTTP does it for the anon
 * role (the only one this stand-in runs requests as).
 */
export function statusForSqlState(code: string, message = ""): number {
  switch (code) {
    case "23503":
    case "23505":
      return 409;
    case "25006":
      return 405;
    case "21000":
      return message.endsWith("requires a WHERE clause") ? 400 : 500;
    case "22023":
      return message.startsWith("role") && message.endsWith("does not exist") ? 401 : 400;
    case "53400":
      return 500;
    case "57P01":
      return 503;
    case "P0001":
      return 400;
    case "42883":
      return message.startsWith("function xmlagg(") ? 406 : 404;
    case "42P01":
      return 404;
    case "42P17":
      return 500;
    case "42501":
      // PostgREST: 401 for anon, 403 for a signed-in role.
      return 401;
    default:
      break;
  }
  if (code.startsWith("PT")) {
    const status = Number(code.slice(2));
    return Number.isInteger(status) && status >= 100 && status <= 999 ? status : 500;
  }
  const byClass: Record<string, number> = {
    "08": 503,
    "09": 500,
    "0L": 403,
    "0P": 403,
    "25": 500,
    "28": 403,
    "2D": 500,
    "38": 500,
    "39": 500,
    "3B": 500,
    "40": 500,
    "53": 503,
    "54": 500,
    "55": 500,
    "57": 500,
    "58": 500,
    F0: 500,
    HV: 500,
    P0: 500,
    XX: 500,
  };
  return byClass[code.slice(0, 2)] ?? 400;
}

export interface DatabaseErrorLike {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  return (
    typeof error === "object" &&
    error !== null &&
    typeof (error as { code?: unknown }).code === "string" &&
    /^[0-9A-Z]{5}$/.test((error as { code: string }).code) &&
    typeof (error as { message?: unknown }).message === "string"
  );
}

/** A database error as PostgREST returns it. */
export function fromDatabaseError(error: DatabaseErrorLike): ErrorReply {
  const status = statusForSqlState(error.code, error.message);
  return {
    status,
    body: {
      code: error.code,
      message: error.message,
      details: error.detail ?? null,
      hint: error.hint ?? null,
    },
    headers: status === 401 ? { "WWW-Authenticate": "Bearer" } : undefined,
  };
}

/** An error PostgREST itself raises (PGRSTxxx codes). */
export function pgrstError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
  hint: string | null = null,
): ErrorReply {
  return {
    status,
    body: { code, message, details, hint },
    headers: status === 401 ? { "WWW-Authenticate": "Bearer" } : undefined,
  };
}

/** Supabase's API gateway, in front of PostgREST, checks the `apikey` first. */
export const GATEWAY_NO_API_KEY: ErrorReply = {
  status: 401,
  body: {
    message: "No API key found in request",
    hint: "No `apikey` request header or url param was found.",
  },
};

export const GATEWAY_INVALID_API_KEY: ErrorReply = {
  status: 401,
  body: {
    message: "Invalid API key",
    hint: "Double check your Supabase `anon` or `service_role` API key.",
  },
};

export const GATEWAY_NO_ROUTE: ErrorReply = {
  status: 404,
  body: { message: "no Route matched with those values" },
};

export const GATEWAY_TOO_LARGE: ErrorReply = {
  status: 413,
  body: { message: "Request size limit exceeded" },
};

/**
 * Parses the `columns` query parameter (`name,email` or `"name","email"`), as supabase-js
 * sends it for array inserts. Returns undefined if it cannot be parsed.
 */
export function parseColumnsParam(raw: string): string[] | undefined {
  const columns: string[] = [];
  let i = 0;
  while (i <= raw.length) {
    while (raw[i] === " ") i += 1;
    let name = "";
    if (raw[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= raw.length) return undefined;
        if (raw[i] === '"') {
          if (raw[i + 1] === '"') {
            name += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        name += raw[i];
        i += 1;
      }
      while (raw[i] === " ") i += 1;
    } else {
      const end = raw.indexOf(",", i);
      name = (end === -1 ? raw.slice(i) : raw.slice(i, end)).trim();
      i = end === -1 ? raw.length : end;
    }
    if (name === "") return undefined;
    columns.push(name);
    if (i >= raw.length) break;
    if (raw[i] !== ",") return undefined;
    i += 1;
  }
  return columns;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
