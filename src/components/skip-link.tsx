import React from "react";
import * as styles from "./skip-link.module.css";

export function SkipLink({ targetId, label }: { targetId: string; label: string }) {
  return (
    <a className={styles.skipLink} href={`#${targetId}`}>
      {label}
    </a>
  );
}
