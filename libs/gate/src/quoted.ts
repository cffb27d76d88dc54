/** How the gate writes text it did not choose (names from servers, certificates, callers) into reasons that end up in logs. */

const MAX_QUOTED_LENGTH = 80;
export const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

const capped = (value: string): string =>
  value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH)}…` : value;

const visible = (value: string): string =>
  value.replace(UNPRINTABLE, (ch) => `\\u{${ch.codePointAt(0)?.toString(16)}}`);

/** Capped, with control and invisible characters escaped. */
export const escaped = (value: string): string => visible(capped(value));

/** Quoted, capped, with quotes, backslashes, control and invisible characters escaped. */
export const quote = (value: string): string => `"${visible(capped(value).replace(/["\\]/g, '\\$&'))}"`;
