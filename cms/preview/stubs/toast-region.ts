/**
 * The preview's stand-in for src/components/toast-region.tsx: the preview's form never sends, so
 * no toast is ever shown and react-toastify (with its stylesheet) stays out of /admin/.
 */
import type * as real from "../../../src/components/toast-region";

export const ToastRegion: typeof real.ToastRegion = () => null;
