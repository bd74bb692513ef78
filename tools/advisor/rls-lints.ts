/** The Advisor's lints about row-level security: tables without it, policies and what they allow. */
import {
  EXPOSED_SCHEMAS,
  normalised,
  notFromExtension,
  POLICIES,
  POLICY_EXPRESSIONS,
  POLICY_FOR_API_ROLES,
  readableByApiRoles,
  relationName,
  TRIVIALLY_TRUE,
  userSchema,
  type LintQuery,
} from "./sql";

/**
 * Column names the Advisor treats as sensitive (lint 0023), compared after lower-casing and
 * turning '-' into '_'. The last three are named in its documentation but not its query.
 */
const SENSITIVE_COLUMN_NAMES = [
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "secret_key",
  "private_key",
  "api_key",
  "apikey",
  "auth_key",
  "token",
  "jwt",
  "access_token",
  "refresh_token",
  "oauth_token",
  "session_token",
  "bearer_token",
  "auth_code",
  "session_id",
  "session_key",
  "session_secret",
  "recovery_code",
  "backup_code",
  "verification_code",
  "otp",
  "two_factor",
  "2fa_secret",
  "2fa_code",
  "ssn",
  "social_security",
  "social_security_number",
  "driver_license",
  "drivers_license",
  "license_number",
  "passport_number",
  "passport_id",
  "national_id",
  "tax_id",
  "credit_card",
  "card_number",
  "cvv",
  "cvc",
  "cvn",
  "bank_account",
  "account_number",
  "routing_number",
  "iban",
  "swift_code",
  "bic",
  "health_record",
  "medical_record",
  "patient_id",
  "insurance_number",
  "health_insurance",
  "medical_insurance",
  "treatment",
  "mac_address",
  "macaddr",
  "imei",
  "device_uuid",
  "pgp_key",
  "gpg_key",
  "ssh_key",
  "certificate",
  "license_key",
  "activation_key",
  "facial_recognition",
  "diagnosis",
  "fingerprint",
  "biometric",
] as const;

const policyName = `${relationName()} || ' policy ' || pg_catalog.quote_ident(p.polname)`;

export const RLS_LINTS: readonly LintQuery[] = [
  {
    code: "0007",
    lint: "policy_exists_rls_disabled",
    level: "ERROR",
    sql: `select distinct ${relationName()} as object
            from ${POLICIES}
           where ${userSchema("n.nspname")} and not c.relrowsecurity and ${notFromExtension("c.oid", "pg_class")}`,
  },
  {
    code: "0008",
    lint: "rls_enabled_no_policy",
    level: "INFO",
    sql: `select ${relationName()} as object
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where ${userSchema("n.nspname")} and c.relkind in ('r', 'p') and c.relrowsecurity
             and ${notFromExtension("c.oid", "pg_class")}
             and not exists (select from pg_catalog.pg_policy p where p.polrelid = c.oid)`,
  },
  {
    // A table the API serves that anon or authenticated can read unchecked. Partitioned tables
    // too (the Advisor looks at plain tables only): a read through the parent uses its RLS.
    code: "0013",
    lint: "rls_disabled_in_public",
    level: "ERROR",
    sql: `select ${relationName()} as object
            from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
           where c.relkind in ('r', 'p') and not c.relrowsecurity
             and n.nspname in ${EXPOSED_SCHEMAS} and ${userSchema("n.nspname")}
             and ${readableByApiRoles("c.oid")}`,
  },
  {
    // user_metadata is whatever the signed-in user last wrote into it: no ground for a decision.
    code: "0015",
    lint: "rls_references_user_metadata",
    level: "ERROR",
    sql: `select distinct ${policyName} as object
            from ${POLICIES}
            ${POLICY_EXPRESSIONS}
           where ${userSchema("n.nspname")}
             and (expressions.expr ~ 'auth\\.jwt\\(\\).*user.metadata'
                  or expressions.expr ~ 'current.setting\\(.*request\\.jwt\\.claims.*\\).*user.metadata')`,
  },
  {
    code: "0023",
    lint: "sensitive_columns_exposed",
    level: "ERROR",
    sql: `select ${relationName()} || ' columns ' || pg_catalog.string_agg(a.attname, ', ' order by a.attname) as object
            from pg_catalog.pg_class c
            join pg_catalog.pg_namespace n on n.oid = c.relnamespace
            join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
           where c.relkind in ('r', 'p') and not c.relrowsecurity
             and n.nspname in ${EXPOSED_SCHEMAS} and ${userSchema("n.nspname")}
             and ${readableByApiRoles("c.oid")}
             and pg_catalog.replace(pg_catalog.lower(a.attname), '-', '_')
                 in (${SENSITIVE_COLUMN_NAMES.map((name) => `'${name}'`).join(", ")})
           group by n.nspname, c.relname`,
  },
  {
    // A permissive write policy for the API roles (or PUBLIC) whose condition says nothing.
    code: "0024",
    lint: "rls_policy_always_true",
    level: "WARN",
    sql: `select ${policyName} as object
            from ${POLICIES}
            cross join lateral (select
                ${normalised("pg_catalog.pg_get_expr(p.polqual, p.polrelid)")} as using_expr,
                ${normalised("pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid)")} as check_expr) e
           where ${userSchema("n.nspname")} and c.relkind = 'r' and c.relrowsecurity and p.polpermissive
             and p.polcmd in ('a', 'w', 'd', '*') and ${POLICY_FOR_API_ROLES}
             and (e.check_expr in ${TRIVIALLY_TRUE}
                  or (p.polcmd in ('w', 'd', '*') and (p.polqual is null or e.using_expr in ${TRIVIALLY_TRUE}))
                  or (p.polcmd = 'a' and p.polwithcheck is null))`,
  },
  {
    // A public bucket serves its files by URL without any policy; a broad read policy on
    // storage.objects (always true, or just "this bucket") lets anyone list them as well.
    code: "0025",
    lint: "public_bucket_allows_listing",
    level: "WARN",
    appliesIf: `select pg_catalog.to_regclass('storage.buckets') is not null
                   and pg_catalog.to_regclass('storage.objects') is not null as applies`,
    sql: `select 'storage bucket ' || b.id || ' policies '
                 || pg_catalog.string_agg(pg_catalog.quote_ident(p.polname), ', ' order by p.polname) as object
            from storage.buckets b
            join pg_catalog.pg_policy p on p.polrelid = 'storage.objects'::pg_catalog.regclass
            cross join lateral (select pg_catalog.pg_get_expr(p.polqual, p.polrelid) as expr) e
           where b.public and p.polpermissive and p.polcmd in ('r', '*') and ${POLICY_FOR_API_ROLES}
             and (p.polqual is null
                  or ${normalised("e.expr")} in ${TRIVIALLY_TRUE}
                  or (pg_catalog.regexp_match(e.expr,
                        '^[\\s(]*bucket_id\\s*=\\s*(''(?:[^'']|'''')*'')(?:\\s*::\\s*[\\w.]+)?[\\s)]*$', 'i'))[1]
                     = '''' || pg_catalog.replace(b.id, '''', '''''') || '''')
           group by b.id`,
  },
];
