/** Failures the local backend reports to a person: one readable line, no stack trace. */
export class LocalBackendError extends Error {
  override name = "LocalBackendError";

  /** Set where a caller tells this failure from the others. */
  constructor(
    message: string,
    readonly kind?: "port-in-use" | "data-dir-in-use" | "migration",
  ) {
    super(message);
  }
}

/** The message of anything thrown, on one line. */
export function oneLine(error: unknown): string {
  // Not `instanceof Error`: Node's own errors can come from another realm (a test runner's).
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === "string" ? message : String(error);
  return text.replace(/\s*\n\s*/g, " ").trim();
}
