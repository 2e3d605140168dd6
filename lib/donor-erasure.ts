/**
 * An erased donor keeps their money records, under a placeholder address that can never receive
 * mail (`.invalid` is reserved for exactly that) and is unique per donor, so the one-donor-per-
 * email rule still holds and a later gift from the same person starts a new donor. Plain
 * functions, usable from server and client components alike.
 */
export const ERASED_DONOR_LABEL = "Erased donor";

const ERASED_EMAIL = /^erased\+[^@\s]+@invalid$/i;

/** The placeholder address of an erased donor (and of their donations). */
export const erasedEmail = (donorId: string) => `erased+${donorId}@invalid`;

export const isErasedEmail = (email: string | null | undefined): boolean => !!email && ERASED_EMAIL.test(email);

/** An address to show or export: null for an erased donor's placeholder. */
export const shownEmail = (email: string | null): string | null => (email === null || isErasedEmail(email) ? null : email);
