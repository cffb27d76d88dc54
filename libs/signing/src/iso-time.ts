/** The one spelling of an instant in signed text: `Date#toISOString()`, UTC with milliseconds. */

/** True when `text` is exactly what `toISOString()` prints, so equal instants are equal bytes. */
export function isCanonicalIsoTime(text: string): boolean {
  const time = Date.parse(text);
  return !Number.isNaN(time) && new Date(time).toISOString() === text;
}
