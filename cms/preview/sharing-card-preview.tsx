import React from "react";
import * as styles from "./sharing-card-preview.module.css";

type SharingCardPreviewProps = {
  /** The card as it will be built (drawn) or the editor's own picture; undefined while it is drawn. */
  src: string | undefined;
  alt: string;
  /** Drawn from the content, rather than the editor's own picture. */
  drawn: boolean;
};

/**
 * The sharing card under a section's preview: not part of the page, but what LinkedIn, Slack
 * and e-mail show when the page is shared, so an editor sees it change with the event's facts.
 */
export function SharingCardPreview({ src, alt, drawn }: SharingCardPreviewProps) {
  return (
    <figure className={styles.figure}>
      {src ? (
        <img className={styles.card} src={src} width={1200} height={630} alt={alt} />
      ) : (
        <div className={styles.card} role="img" aria-label={alt} />
      )}
      <figcaption className={styles.caption}>
        {drawn
          ? "Sharing card, as LinkedIn, Slack and e-mail show the page: drawn from the expo's name, booth, dates and city, the headline and the company name."
          : "Sharing card: your own picture (leave “Your own sharing picture” empty to use the drawn card)."}
      </figcaption>
    </figure>
  );
}
