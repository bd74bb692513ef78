/**
 * The one place that sizes every field of a meeting request: the form's `maxLength` attributes
 * read these numbers, and the database's CHECK constraints (supabase/migrations/) enforce the
 * same ones (a test applies the migration and probes each boundary with these values).
 */
export const FIELD_LIMITS = {
  fullName: 200,
  organization: 200,
  /** RFC 5321 caps a forward path at 256 octets including the angle brackets. */
  email: 254,
  phone: 40,
  fleetSize: 100,
  challenges: 4000,
} as const;

/**
 * The longest `message` the form can assemble (the five labelled lines, every optional field at
 * its limit, every product selected), rounded up so a new product or label rejects no request.
 */
export const MESSAGE_MAX_LENGTH = 6000;

/** Stored column sizes, as the `contacts` table checks them. */
export const CONTACT_COLUMN_LIMITS = {
  name: FIELD_LIMITS.fullName,
  organization: FIELD_LIMITS.organization,
  email: FIELD_LIMITS.email,
  message: MESSAGE_MAX_LENGTH,
} as const;
