/**
 * The preview's stand-in for src/lib/toasts.ts: no toast library in /admin/; the preview's form
 * never sends, so nothing is announced.
 */
import type * as real from "../../../src/lib/toasts";

export const prepareToasts: typeof real.prepareToasts = async () => undefined;
