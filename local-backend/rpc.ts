/**
 * `POST /rest/v1/rpc/<function>` as PostgREST answers it, for functions in schema `public`:
 * a JSON object body gives the named arguments; a function with one unnamed `text`, `json` or
 * `jsonb` parameter takes the whole body instead (`Content-Type: text/plain` for text, as
 * PostgREST's "single unnamed parameter" calls). The answer follows the function's return type:
 * a set or table → JSON array of rows, one composite → object, a scalar → its JSON value,
 * void → 204. The public API runs the call as `anon` (with the request's `request.*` settings,
 * so grants and SECURITY DEFINER functions decide what happens); the notifier's service API uses
 * the same call as `service_role`.
 */
import type http from "node:http";

import type { PGlite, Transaction } from "@electric-sql/pglite";

import { databaseErrorReply, runAsAnon, type BackendContext } from "./context";
import { GATEWAY_TOO_LARGE, pgrstError, quoteIdent, type ErrorReply } from "./postgrest";
import { errorReply, type Reply } from "./reply";
import { readBody } from "./request-body";

type Queryable = Pick<Transaction | PGlite, "query">;

interface FunctionSignature {
  returnsSet: boolean;
  returnType: string;
  /** A composite type, or RETURNS TABLE: rows as JSON objects. */
  returnsRows: boolean;
  /** Input arguments in order, "" for an unnamed one. */
  argumentNames: string[];
  argumentTypes: string[];
  /** How many trailing input arguments have defaults. */
  defaults: number;
}

export interface RpcAnswer {
  status: number;
  /** JSON text of the answer; undefined for 204. */
  body?: string;
}

const SINGLE_BODY_TYPES = new Set(["text", "json", "jsonb"]);

/** The input arguments of every function `public.<name>` (overloads included). */
async function signaturesOf(db: Queryable, name: string): Promise<FunctionSignature[]> {
  const result = await db.query<{
    returns_set: boolean;
    return_type: string;
    returns_composite: boolean;
    names: string[] | null;
    modes: string[] | null;
    types: string[];
    defaults: number;
  }>(
    `select p.proretset as returns_set,
            pg_catalog.format_type(p.prorettype, null) as return_type,
            t.typtype = 'c' as returns_composite,
            p.proargnames as names,
            p.proargmodes::text[] as modes,
            array(select pg_catalog.format_type(oid, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) with ordinality a(oid, n) order by n) as types,
            p.pronargdefaults::int as defaults
       from pg_catalog.pg_proc p
       join pg_catalog.pg_namespace n on n.oid = p.pronamespace
       join pg_catalog.pg_type t on t.oid = p.prorettype
      where n.nspname = 'public' and p.proname = $1 and p.prokind = 'f'`,
    [name],
  );
  return result.rows.map((row) => {
    const modes = row.modes ?? row.types.map(() => "i");
    const inputs = row.types
      .map((type, index) => ({ type, name: row.names?.[index] ?? "", mode: modes[index] }))
      .filter(
        (argument) => argument.mode === "i" || argument.mode === "b" || argument.mode === "v",
      );
    return {
      returnsSet: row.returns_set,
      returnType: row.return_type,
      returnsRows: row.returns_composite || modes.includes("t"),
      argumentNames: inputs.map((argument) => argument.name),
      argumentTypes: inputs.map((argument) => argument.type),
      defaults: row.defaults,
    };
  });
}

/** Whether `signature` can be called with exactly these named arguments. */
function acceptsNames(signature: FunctionSignature, names: string[]): boolean {
  const required = signature.argumentNames.slice(
    0,
    signature.argumentNames.length - signature.defaults,
  );
  return (
    names.every((key) => signature.argumentNames.includes(key)) &&
    required.every((key) => key !== "" && names.includes(key))
  );
}

function takesWholeBody(signature: FunctionSignature): boolean {
  return (
    signature.argumentNames.length === 1 &&
    signature.argumentNames[0] === "" &&
    SINGLE_BODY_TYPES.has(signature.argumentTypes[0]!)
  );
}

function notFound(name: string, names: string[]): ErrorReply {
  const list = [...names].sort().join(", ");
  return pgrstError(
    404,
    "PGRST202",
    `Could not find the function public.${name}(${list}) in the schema cache`,
    `Searched for the function public.${name}${list ? ` with parameters ${list}` : " without parameters"}, but no matches were found in the schema cache.`,
  );
}

/** A JSON value as the text PostgreSQL casts to the argument's type. */
function argumentText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

function callStatement(
  name: string,
  signature: FunctionSignature,
  call: string,
): { sql: string; kind: "void" | "json" } {
  const fn = `public.${quoteIdent(name)}(${call})`;
  if (signature.returnType === "void" && !signature.returnsSet)
    return { sql: `select ${fn}`, kind: "void" };
  // As a subquery, `r` is a row even when the table has one column; as a function alias it would be that column.
  const rows = signature.returnsRows ? `(select * from ${fn}) r` : `${fn} r`;
  if (signature.returnsSet)
    return {
      sql: `select coalesce(pg_catalog.json_agg(r), '[]'::json)::text as body from ${rows}`,
      kind: "json",
    };
  if (signature.returnsRows)
    return { sql: `select pg_catalog.to_json(r)::text as body from ${rows}`, kind: "json" };
  return { sql: `select pg_catalog.to_json(${fn})::text as body`, kind: "json" };
}

/**
 * Calls `public.<name>` with the request body, in the caller's transaction (already in the role
 * the call runs as). Database errors are thrown, for the caller to answer as PostgREST does.
 */
export async function callFunction(
  tx: Queryable,
  name: string,
  body: string,
  contentType: string | undefined,
): Promise<RpcAnswer | ErrorReply> {
  const mediaType = (contentType ?? "application/json").split(";")[0]!.trim().toLowerCase();
  const signatures = await signaturesOf(tx, name);
  const wholeBody = signatures.find(takesWholeBody);
  let signature: FunctionSignature | undefined;
  let values: (string | null)[];
  let call: string;
  if (mediaType === "text/plain") {
    if (!wholeBody || wholeBody.argumentTypes[0] !== "text") return notFound(name, []);
    [signature, values, call] = [wholeBody, [body], "$1::text"];
  } else if (mediaType !== "application/json") {
    return pgrstError(415, "PGRST107", `None of these media types are available: ${mediaType}`);
  } else {
    let args: unknown;
    try {
      args = body.trim() === "" ? {} : JSON.parse(body);
    } catch {
      return pgrstError(400, "PGRST102", "Empty or invalid json");
    }
    if (wholeBody && wholeBody.argumentTypes[0] !== "text") {
      [signature, values, call] = [
        wholeBody,
        [body.trim() === "" ? "{}" : body],
        `$1::${wholeBody.argumentTypes[0]}`,
      ];
    } else {
      if (typeof args !== "object" || args === null || Array.isArray(args)) {
        return pgrstError(400, "PGRST102", "Expected a JSON object of named arguments");
      }
      const names = Object.keys(args);
      signature = signatures.find(
        (candidate) => !takesWholeBody(candidate) && acceptsNames(candidate, names),
      );
      if (!signature) return notFound(name, names);
      const chosen = signature;
      values = names.map((key) => argumentText((args as Record<string, unknown>)[key]));
      call = names
        .map(
          (key, index) =>
            `${quoteIdent(key)} => $${index + 1}::${chosen.argumentTypes[chosen.argumentNames.indexOf(key)]}`,
        )
        .join(", ");
    }
  }
  const statement = callStatement(name, signature, call);
  const result = await tx.query<{ body: string | null }>(statement.sql, values);
  if (statement.kind === "void") return { status: 204 };
  return { status: 200, body: result.rows[0]?.body ?? "null" };
}

/** The function name of a `/rest/v1/rpc/<name>` path, or undefined for any other path. */
export function rpcName(pathname: string): string | undefined {
  const match = /^\/rest\/v1\/rpc\/([^/]+)\/?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}

export function isRpcAnswer(value: RpcAnswer | ErrorReply): value is RpcAnswer {
  return typeof (value as { body?: unknown }).body !== "object";
}

/** A call's answer, or PostgREST's error for it, as the reply the backend sends. */
export function rpcReply(answer: RpcAnswer | ErrorReply): Reply {
  if (!isRpcAnswer(answer)) return errorReply(answer);
  return answer.body === undefined
    ? { status: answer.status }
    : { status: answer.status, json: JSON.parse(answer.body) as unknown };
}

/**
 * Calls `public.<name>` as `service_role` in a transaction of its own: what the service key gets
 * on a hosted project (the notifier's service API, `npm run report` through the admin endpoint).
 */
export function callFunctionAsServiceRole(
  db: PGlite,
  name: string,
  body: string,
  contentType: string | undefined,
): Promise<RpcAnswer | ErrorReply> {
  return db.transaction(async (tx) => {
    await tx.query(
      "select set_config('role', 'service_role', true), set_config('request.jwt.claims', '{\"role\":\"service_role\"}', true)",
    );
    return callFunction(tx, name, body, contentType);
  });
}

/** Answers `POST /rest/v1/rpc/<name>` on the public API, as anon. */
export async function callRpcAsAnon(
  context: BackendContext,
  req: http.IncomingMessage,
  name: string,
): Promise<Reply> {
  const { body, tooLarge, aborted } = await readBody(req, context.maxBodyBytes);
  if (aborted && !tooLarge) return { status: 400 };
  if (tooLarge) return errorReply(GATEWAY_TOO_LARGE);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return errorReply(pgrstError(400, "PGRST102", "Empty or invalid json"));
  }
  let answer: RpcAnswer | ErrorReply;
  try {
    answer = await runAsAnon(context, req, `/rpc/${name}`, (tx) =>
      callFunction(tx, name, text, req.headers["content-type"]),
    );
  } catch (error) {
    return databaseErrorReply(error);
  }
  return rpcReply(answer);
}
