import React from "react";
import type { ReactNode } from "react";
import { graphql, useStaticQuery } from "gatsby";

type SeoProps = {
  /** The page's own title; the company name is appended. */
  title: string;
  /** Path of the page, starting with "/", for the canonical URL. */
  pathname: string;
  noindex?: boolean;
  children?: ReactNode;
};

/** Everything in <head> for both pages: title, description, canonical, sharing cards, icons. */
export function Seo({ title, pathname, noindex = false, children }: SeoProps) {
  const data = useStaticQuery<Queries.SeoQuery>(graphql`
    query Seo {
      site {
        siteMetadata {
          siteUrl
        }
      }
      siteContent {
        companyName
        description
        shareImage {
          publicURL
        }
        shareImageAlt
      }
    }
  `);
  const siteUrl = data.site?.siteMetadata?.siteUrl ?? "";
  const content = data.siteContent;
  const pageTitle = content ? `${title} | ${content.companyName}` : title;
  const pageDescription = content?.description ?? "";
  const canonical = `${siteUrl}${pathname}`;
  const imageUrl = content?.shareImage.publicURL
    ? `${siteUrl}${content.shareImage.publicURL}`
    : undefined;

  return (
    <>
      <html lang="en" />
      <title>{pageTitle}</title>
      <meta name="description" content={pageDescription} />
      <link rel="canonical" href={canonical} />
      {noindex && <meta name="robots" content="noindex, follow" />}
      <meta name="theme-color" content="#0b2545" />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      <link rel="icon" href="/favicon-32.png" type="image/png" sizes="32x32" />
      <link rel="apple-touch-icon" href="/apple-touch-icon.png" />

      <meta property="og:type" content="website" />
      <meta property="og:site_name" content={content?.companyName} />
      <meta property="og:title" content={pageTitle} />
      <meta property="og:description" content={pageDescription} />
      <meta property="og:url" content={canonical} />
      <meta property="og:locale" content="en_US" />
      <meta name="twitter:card" content="summary_large_image" />
      <meta name="twitter:title" content={pageTitle} />
      <meta name="twitter:description" content={pageDescription} />
      {imageUrl && (
        <>
          <meta property="og:image" content={imageUrl} />
          <meta property="og:image:width" content="1200" />
          <meta property="og:image:height" content="630" />
          <meta property="og:image:alt" content={content?.shareImageAlt} />
          <meta name="twitter:image" content={imageUrl} />
          <meta name="twitter:image:alt" content={content?.shareImageAlt} />
        </>
      )}
      {children}
    </>
  );
}
