import React from "react";
import { toast, ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import {
  TOAST_AUTO_CLOSE_MS,
  TOAST_LIMIT,
  type ToastKind,
  type ToastText,
} from "../lib/toast-display";
import { ToastMessage } from "./toast-message";

/** Loaded on demand (src/lib/toasts.ts): about 4 seconds each, at most 3 at once, announced to screen readers. */
export default function LoadedToastContainer({ label }: { label: string }) {
  return (
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      limit={TOAST_LIMIT}
      newestOnTop
      theme="light"
      aria-label={label}
    />
  );
}

export function showLoadedToast(kind: ToastKind, message: ToastText): void {
  toast[kind](<ToastMessage {...message} />);
}
