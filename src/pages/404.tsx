import React, { useEffect } from "react";
import { graphql } from "gatsby";
import type { HeadProps, PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo";
import { logMissingPath, NOT_FOUND_ATTRIBUTE } from "../lib/page-markers";
import * as styles from "./404.module.css";

/** The page's words live in content/site.yaml (notFound, skipLinkLabel). */
function requireContent(data: Queries.NotFoundPageQuery) {
  if (!data.siteContent)
    throw new Error("content/site.yaml is missing: the not-found page takes its words from it.");
  return data.siteContent;
}

export default function NotFoundPage({ data, location }: PageProps<Queries.NotFoundPageQuery>) {
  const { notFound, skipLinkLabel } = requireContent(data);
  // The built page's start-up script logs it (src/boot/page-boot.ts); this effect, in `gatsby develop`.
  useEffect(() => logMissingPath(location.pathname), [location.pathname]);
  return (
    <Layout skipLinkLabel={skipLinkLabel}>
      <div className={styles.page} {...{ [NOT_FOUND_ATTRIBUTE]: "" }}>
        <p className={styles.code} aria-hidden="true">
          {notFound.code}
        </p>
        <h1 className={styles.heading}>
          <span className="visually-hidden">{notFound.code}: </span>
          {notFound.heading}
        </h1>
        {/* A full page load, not Gatsby's <Link>: the built pages run without Gatsby's router. */}
        <a className={styles.home} href="/">
          {notFound.homeLinkLabel}
        </a>
      </div>
    </Layout>
  );
}

export function Head({ data, location }: HeadProps<Queries.NotFoundPageQuery>) {
  return <Seo title={requireContent(data).notFound.title} pathname={location.pathname} noindex />;
}

export const query = graphql`
  query NotFoundPage {
    siteContent {
      skipLinkLabel
      notFound {
        title
        code
        heading
        homeLinkLabel
      }
    }
  }
`;
