/** Turns a manifest's free-form author into the namespace a skill is published under. */

/** A namespace: lowercase letters, digits and hyphens, starting with a letter or digit, at most 39 characters. */
export const NAMESPACE_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,38}$/;

const MAX_SLUG_LENGTH = 39;

/**
 * "Kazma Team" → "kazma-team", "ACME Labs, Inc." → "acme-labs-inc", "Zoë Çelik" → "zoe-celik".
 * Returns "" when nothing usable is left (e.g. an author written only in non-Latin script);
 * callers check the result against NAMESPACE_SLUG_PATTERN.
 */
export function slugify(author: string): string {
  return author
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-$/, '');
}
