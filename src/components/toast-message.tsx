import React from "react";
import * as styles from "./toast-message.module.css";

export function ToastMessage({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <p className={styles.title}>{title}</p>
      <p className={styles.text}>{text}</p>
    </div>
  );
}
