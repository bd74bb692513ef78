// Stands in for Gatsby's service-worker registration (build-time/unused-gatsby-runtime.ts). Gatsby
// only loads it when a plugin registers a service worker; this site has none. If one is added,
// remove the alias instead of shipping a site whose worker silently never registers.
throw new Error(
  "A plugin registers a service worker, but build-time/unused-gatsby-runtime.ts replaced Gatsby's registration code: remove that alias.",
);
