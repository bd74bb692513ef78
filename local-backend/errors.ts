/** Failures the local backend reports to a person: one readable line, no stack trace. */
export type LocalBackendErrorKind =
  | "port-in-use"
  | "listen-failed"
  | "data-dir"
  | "data-dir-in-use"
  | "database"
  | "database-damaged"
  | "migration"
  | "settings"
  | "notifications";

export class LocalBackendError extends Error {
  readonly kind: LocalBackendErrorKind;

  constructor(kind: LocalBackendErrorKind, message: string) {
    super(message);
    this.name = "LocalBackendError";
    this.kind = kind;
  }
}

/** The message of anything thrown, on one line. */
export function oneLine(error: unknown): string {
  // Not `instanceof Error`: Node's own errors can come from another realm (a test runner's).
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === "string" ? message : String(error);
  return text.replace(/\s*\n\s*/g, " ").trim();
}
