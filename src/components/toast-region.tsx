import React from "react";
import { ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import { TOAST_AUTO_CLOSE_MS, TOAST_LIMIT } from "../lib/toast-texts";

/** Where submission results appear: about 4 seconds each, at most 3 at once, announced to screen readers. */
export function ToastRegion() {
  return <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} limit={TOAST_LIMIT} newestOnTop theme="light" />;
}
