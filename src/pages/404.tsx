import React, { useEffect } from "react";
import { graphql } from "gatsby";
import type { HeadProps, PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo";
import { StaticHtml } from "../components/static-html";
import * as styles from "./404.module.css";

/** The page's words live in content/site.yaml (notFound, skipLinkLabel). */
function requireContent(data: Queries.NotFoundPageQuery) {
  if (!data.siteContent) throw new Error("content/site.yaml is missing: the not-found page takes its words from it.");
  return data.siteContent;
}

export default function NotFoundPage({ data, location }: PageProps<Queries.NotFoundPageQuery>) {
  const content = requireContent(data);
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);
  // Nothing on this page changes after the build: in the browser bundle it is the server's HTML (StaticHtml).
  return <StaticHtml>{process.env.BUILD_STAGE !== "build-javascript" && <NotFound content={content} />}</StaticHtml>;
}

function NotFound({ content: { notFound, skipLinkLabel } }: { content: ReturnType<typeof requireContent> }) {
  return (
    <Layout skipLinkLabel={skipLinkLabel}>
      <div className={styles.page}>
        <p className={styles.code} aria-hidden="true">
          {notFound.code}
        </p>
        <h1 className={styles.heading}>
          <span className="visually-hidden">{notFound.code}: </span>
          {notFound.heading}
        </h1>
        {/* A full page load, not Gatsby's <Link>: most of the landing page exists only in its HTML (StaticHtml). */}
        <a className={styles.home} href="/">
          {notFound.homeLinkLabel}
        </a>
      </div>
    </Layout>
  );
}

function NotFoundHead({ data, location }: HeadProps<Queries.NotFoundPageQuery>) {
  return <Seo title={requireContent(data).notFound.title} pathname={location.pathname} noindex />;
}

/** Only in the HTML, as on the landing page (src/pages/index.tsx, build-time/head-elements.ts). */
export const Head = process.env.BUILD_STAGE !== "build-javascript" ? NotFoundHead : undefined;

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
