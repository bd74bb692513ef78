/** The embedded local backend's public API (see docs/local-backend.md). */
export { startLocalBackend } from "./server";
export type { LocalBackend, LocalBackendOptions } from "./server";
export { ensureLocalBackend } from "./ensure";
export type { EnsuredLocalBackend } from "./ensure";
export { LocalBackendError } from "./errors";
export { readRequests } from "./database";
export type { StoredRequest } from "./database";
