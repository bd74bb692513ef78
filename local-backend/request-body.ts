/**
 * Reading an insert request the way PostgREST does: the body (size-limited), the `Prefer`
 * header, and which columns the body names (from `?columns=` or from the JSON keys).
 */
import type http from "node:http";

import { parseColumnsParam, pgrstError, type ErrorReply } from "./postgrest";

export interface BodyResult {
  body: Buffer;
  tooLarge: boolean;
  aborted: boolean;
}

/** Reads the body; past the limit it keeps draining (so the client sees the 413) but stores nothing. */
export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (aborted: boolean): void => {
      if (done) return;
      done = true;
      resolve({ body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge, aborted });
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        // Do not drain forever: past 16× the limit, drop the connection.
        if (size > limit * 16) {
          req.destroy();
          finish(true);
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => finish(false));
    req.on("error", () => finish(true));
    req.on("close", () => finish(!req.complete));
  });
}

export interface Prefer {
  representation: boolean;
  countExact: boolean;
  applied: string[];
}

export function parsePrefer(header: string | string[] | undefined): Prefer {
  const values = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  const prefer: Prefer = { representation: false, countExact: false, applied: [] };
  for (const value of values) {
    if (value === "return=representation") {
      prefer.representation = true;
      prefer.applied.push(value);
    } else if (value === "return=minimal" || value === "return=headers-only") {
      prefer.applied.push(value);
    } else if (value === "count=exact") {
      prefer.countExact = true;
      prefer.applied.push(value);
    }
  }
  return prefer;
}

export interface InsertPayload {
  /** Column names the insert writes, sorted. */
  keys: string[];
  /** JSON text passed to the database as one parameter (an object or an array of objects). */
  payload: string;
}

const invalidJson = (): ErrorReply => pgrstError(400, "PGRST102", "Empty or invalid json");

/** Keys of a JSON body: one object, or an array of objects that all have the same keys. */
function jsonKeys(value: unknown): string[] | ErrorReply {
  if (Array.isArray(value)) {
    if (value.length === 0) return [];
    const first: unknown = value[0];
    const isObject = (item: unknown): item is object =>
      typeof item === "object" && item !== null && !Array.isArray(item);
    if (!isObject(first)) return pgrstError(400, "PGRST102", "All object keys must match");
    const canonical = Object.keys(first).sort().join("\u0000");
    const uniform = value.every(
      (item) => isObject(item) && Object.keys(item).sort().join("\u0000") === canonical,
    );
    return uniform ? Object.keys(first) : pgrstError(400, "PGRST102", "All object keys must match");
  }
  return typeof value === "object" && value !== null ? Object.keys(value) : [];
}

/** The columns and JSON payload of an insert body, or the error PostgREST gives for it. */
export function parseInsertBody(
  body: Buffer,
  contentType: string | undefined,
  columnsParam: string | null,
): InsertPayload | ErrorReply {
  const mediaType = (contentType ?? "application/json").split(";")[0]!.trim().toLowerCase();
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return invalidJson();
  }

  if (mediaType === "application/x-www-form-urlencoded") {
    const form: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(text)) form[key] = value;
    return { keys: Object.keys(form).sort(), payload: JSON.stringify(form) };
  }
  if (mediaType !== "application/json") {
    return pgrstError(400, "PGRST102", `Content-Type not acceptable: ${mediaType}`);
  }
  if (columnsParam !== null) {
    const parsed = parseColumnsParam(columnsParam);
    if (!parsed)
      return pgrstError(400, "PGRST100", `"failed to parse columns parameter (${columnsParam})"`);
    return { keys: [...new Set(parsed)].sort(), payload: text };
  }
  let value: unknown;
  try {
    if (text.trim() === "") return invalidJson();
    value = JSON.parse(text);
  } catch {
    return invalidJson();
  }
  const keys = jsonKeys(value);
  if (!Array.isArray(keys)) return keys;
  // PostgREST treats a scalar body as an empty array: nothing to insert.
  const scalar = typeof value !== "object" || value === null;
  return { keys: [...keys].sort(), payload: scalar ? "[]" : text };
}

export function isErrorReply(value: InsertPayload | ErrorReply): value is ErrorReply {
  return "status" in value;
}
