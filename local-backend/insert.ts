/**
 * The insert path: `POST /rest/v1/contacts`, as PostgREST runs it. The body reaches
 * PostgreSQL as one `json` parameter read with `json_to_record(set)`, in its own
 * transaction as role `anon`, so the migration's grants, policies, CHECK constraints and
 * triggers decide what is stored.
 */
import type http from "node:http";

import { databaseErrorReply, runAsAnon, TABLE, type BackendContext } from "./context";
import { readRequests, type StoredRequest } from "./database";
import { GATEWAY_TOO_LARGE, quoteIdent, pgrstError } from "./postgrest";
import { errorReply, type Headers, type Reply } from "./reply";
import { isErrorReply, parseInsertBody, parsePrefer, readBody } from "./request-body";

/** The statement PostgREST builds for an insert of `keys` from the JSON parameter $1. */
function insertStatement(
  context: BackendContext,
  keys: string[],
  isObject: boolean,
  returning: boolean,
): string {
  const list = keys.map(quoteIdent).join(", ");
  const typed = keys.map((key) => `${quoteIdent(key)} ${context.columns.get(key)}`).join(", ");
  const returningClause = returning
    ? ` returning ${[...context.columns.keys()].map(quoteIdent).join(", ")}`
    : "";
  const payload = "from (select $1::json as json_data) pgrst_payload";
  if (keys.length === 0) {
    const rows = isObject
      ? "(select from (values (1)) _)"
      : "(select from json_array_elements(pgrst_payload.json_data) _)";
    return `insert into public.${TABLE} select ${payload}, lateral ${rows} pgrst_body${returningClause}`;
  }
  const reader = isObject ? "json_to_record" : "json_to_recordset";
  return (
    `insert into public.${TABLE} (${list}) select ${list} ${payload}, ` +
    `lateral (select ${list} from ${reader}(pgrst_payload.json_data) as _(${typed})) pgrst_body${returningClause}`
  );
}

/** Handles one insert request and says what to answer. */
export async function insertContacts(
  context: BackendContext,
  req: http.IncomingMessage,
  url: URL,
  requestPath: string,
): Promise<Reply> {
  const declared = Number(req.headers["content-length"] ?? "0");
  const { body, tooLarge, aborted } = await readBody(req, context.maxBodyBytes);
  if (aborted && !tooLarge) return { status: 400 };
  if (tooLarge || declared > context.maxBodyBytes) return errorReply(GATEWAY_TOO_LARGE);

  const parsed = parseInsertBody(
    body,
    req.headers["content-type"],
    url.searchParams.get("columns"),
  );
  if (isErrorReply(parsed)) return errorReply(parsed);
  const { keys, payload } = parsed;
  const unknown = keys.find((key) => !context.columns.has(key));
  if (unknown !== undefined) {
    return errorReply(
      pgrstError(
        400,
        "PGRST204",
        `Could not find the '${unknown}' column of '${TABLE}' in the schema cache`,
      ),
    );
  }

  const prefer = parsePrefer(req.headers["prefer"]);
  const sql = insertStatement(
    context,
    keys,
    payload.trimStart().startsWith("{"),
    prefer.representation,
  );
  let result: { affectedRows?: number; rows: unknown[] };
  let stored: StoredRequest[];
  try {
    [result, stored] = await runAsAnon(context, req, requestPath, async (tx) => {
      const inserted = await tx.query(sql, [payload]);
      if (!context.journal || !inserted.affectedRows) return [inserted, []] as const;
      // Back to the superuser (anon may not read) to copy the stored row into the journal.
      await tx.query("reset role");
      return [inserted, await readRequests(tx, true)] as const;
    });
    // On disk outside the database before the 201 (see journal.ts).
    context.journal?.append(stored);
  } catch (error) {
    return databaseErrorReply(error);
  }
  const count = result.affectedRows ?? 0;
  const headers: Headers = { "Content-Range": prefer.countExact ? `*/${count}` : "*/*" };
  if (prefer.applied.length > 0) headers["Preference-Applied"] = prefer.applied.join(", ");
  return prefer.representation
    ? { status: 201, headers, json: result.rows }
    : { status: 201, headers };
}
