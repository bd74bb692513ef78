import React, { useEffect } from "react";
import { Link } from "gatsby";
import type { HeadFC, PageProps } from "gatsby";
import { Layout } from "../components/layout";
import { Seo } from "../components/seo";
import * as styles from "./404.module.css";

export default function NotFoundPage({ location }: PageProps) {
  useEffect(() => {
    console.error("404 Error: User attempted to access non-existent route:", location.pathname);
  }, [location.pathname]);

  return (
    <Layout>
      <div className={styles.page}>
        <p className={styles.code} aria-hidden="true">
          404
        </p>
        <h1 className={styles.heading}>
          <span className="visually-hidden">404: </span>Oops! Page not found
        </h1>
        <Link className={styles.home} to="/">
          Return to Home
        </Link>
      </div>
    </Layout>
  );
}

export const Head: HeadFC = ({ location }) => <Seo title="Page not found" pathname={location.pathname} noindex />;
