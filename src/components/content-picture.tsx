import React from "react";
import type { IGatsbyImageData } from "gatsby-plugin-image";

type ContentPictureProps = {
  image: IGatsbyImageData;
  alt: string;
  className?: string;
};

/**
 * Renders the responsive sources gatsby-plugin-image generated (AVIF, WebP, fallback, several
 * widths) as a plain <picture>. The <GatsbyImage> component would do the same but always loads
 * its lazy-hydrate chunk (react-dom/server, ~25 KB gzip) after the page starts, which is a
 * quarter of our JavaScript budget spent on one below-the-fold illustration. Native lazy loading
 * and the intrinsic width/height give the same "lazy, no layout shift" result without it.
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
