/** The embedded local backend's public API (see README.md in this folder). */
export { startLocalBackend, DEFAULT_MAX_BODY_BYTES } from "./server";
export type { LocalBackend, LocalBackendOptions } from "./server";
export { LocalBackendError } from "./errors";
export type { LocalBackendErrorKind } from "./errors";
export { openDatabase, applyMigrations, readRequests } from "./database";
export type { StoredRequest } from "./database";
export { loadRequests } from "./requests";
export { DEFAULT_DATA_DIR, defaultDataDir, defaultMigrationsDir } from "./paths";
export { statusForSqlState } from "./postgrest";
