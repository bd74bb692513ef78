import React from "react";
import { createRoot, type Root } from "react-dom/client";
import { toast, ToastContainer } from "react-toastify/unstyled";
import "react-toastify/ReactToastify.css";
import * as styles from "./toast-container.module.css";

export type ToastKind = "success" | "error";
export type ToastText = { title: string; text: string };

let mounted: { host: HTMLElement; root: Root } | undefined;

/**
 * The toast region, a React root of its own at the end of the body, outside the form (nothing around
 * the form can clip it, and React hears none of the form's events). Loaded on demand
 * (src/lib/toasts.ts); mounted once, again only if it left the page.
 */
export function mountToasts(label: string): void {
  if (mounted?.host.isConnected) return;
  mounted?.root.unmount();
  const host = document.createElement("div");
  document.body.append(host);
  const root = createRoot(host);
  root.render(
    <ToastContainer
      position="top-right"
      autoClose={4000}
      limit={3}
      newestOnTop
      theme="light"
      aria-label={label}
    />,
  );
  mounted = { host, root };
}

/** Shows a toast; one shown before the region has mounted waits in react-toastify's queue. */
export function showLoadedToast(kind: ToastKind, { title, text }: ToastText): void {
  toast[kind](
    <div>
      <p className={styles.title}>{title}</p>
      <p className={styles.text}>{text}</p>
    </div>,
  );
}
