import React from "react";
import type { IGatsbyImageData } from "gatsby-plugin-image";

type ContentPictureProps = {
  image: IGatsbyImageData;
  alt: string;
  className?: string;
};

/**
 * The responsive sources gatsby-plugin-image generated (AVIF, WebP, fallback, several widths) as a
 * plain, natively lazy <picture> with its intrinsic size: <GatsbyImage> would add its hydration
 * chunk (react-dom/server, ~25 KB gzip) to every first visit.
 */
export function ContentPicture({ image, alt, className }: ContentPictureProps) {
  const { fallback, sources = [] } = image.images;
  return (
    <picture>
      {sources.map((source) => (
        <source
          key={source.type}
          type={source.type}
          srcSet={source.srcSet}
          sizes={source.sizes}
          media={source.media}
        />
      ))}
      <img
        className={className}
        src={fallback?.src}
        srcSet={fallback?.srcSet}
        sizes={fallback?.sizes}
        width={image.width}
        height={image.height}
        alt={alt}
        loading="lazy"
        decoding="async"
      />
    </picture>
  );
}
