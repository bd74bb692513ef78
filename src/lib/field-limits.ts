/**
 * The one place that sizes every field of a meeting request.
 *
 * The form's `maxLength` attributes read these numbers, and the database's CHECK
 * constraints in `supabase/migrations/` enforce the same ones on the server
 * (a test applies the migration and probes each boundary with these values).
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
 * The longest `message` the form can assemble: the five labelled lines with every
 * optional field at its limit and every product selected, rounded up generously so
 * a future product option or label change does not start rejecting real requests.
 */
export const MESSAGE_MAX_LENGTH = 6000;

/** Stored column sizes, as the `contacts` table checks them. */
export const CONTACT_COLUMN_LIMITS = {
  name: FIELD_LIMITS.fullName,
  organization: FIELD_LIMITS.organization,
  email: FIELD_LIMITS.email,
  message: MESSAGE_MAX_LENGTH,
} as const;
