/**
 * The arguments of a tool call as the gate hands them on: a fresh JSON copy with the
 * one-shot approval flag taken out.
 *
 * The flag. Neither docs/kazma.md nor docs/security.md names an argument for it, so the
 * reserved key is `__approve` (APPROVAL_FLAG_KEY), top level only. Design:
 *   - It is ALWAYS removed, whatever its value and whatever the verdict, so a tool never
 *     sees it and a server cannot learn which calls were approved.
 *   - By itself it grants nothing. The arguments are written by the model, and a model
 *     that has read a prompt injection will happily add `"__approve": true`; an approval
 *     a model can give itself is no approval. It counts only when the caller's policy
 *     says so (`honourApprovalFlag: true` in `decideToolCall`, for arguments that come
 *     from a human-driven client rather than a model), and then only the JSON value
 *     `true` counts, for this one call (it lives in this call's arguments, so it cannot
 *     outlive it).
 *   - Only the exact key is reserved; a nested `__approve` is the tool's own data.
 *
 * The copy. Arguments are copied once, deeply, through canonical JSON, so the value the
 * gate inspected is the value the tool receives: a getter or Proxy cannot answer one
 * way to the gate and another way to the tool, and anything that is not JSON (or throws
 * while being read) fails here — and `decideToolCall` turns that failure into a deny.
 * JSON.parse creates an own `__proto__` key as plain data, so no prototype is swapped.
 */
import { canonicalJson, NotCanonicalJsonError } from '@skillhub/signing';

/** The reserved argument key carrying the one-shot approval flag. */
export const APPROVAL_FLAG_KEY = '__approve';

export type ToolArguments = Record<string, unknown>;

export interface TakenArguments {
  /** The arguments to pass to the tool: a fresh copy, flag removed. */
  args: ToolArguments;
  /** The flag key was present (and has been removed). */
  flagPresent: boolean;
  /** The flag was exactly the JSON value `true` (whether that counts is the caller's policy). */
  flagSet: boolean;
}

/** Copies `args` (undefined or null = no arguments) and removes the approval flag; throws on non-JSON. */
export function takeApprovalFlag(args: unknown): TakenArguments {
  if (args === undefined || args === null) return { args: {}, flagPresent: false, flagSet: false };
  if (typeof args !== 'object' || Array.isArray(args)) {
    throw new NotCanonicalJsonError('tool arguments must be a JSON object', '$');
  }
  const copy = JSON.parse(canonicalJson(args)) as ToolArguments;
  const flagPresent = Object.prototype.hasOwnProperty.call(copy, APPROVAL_FLAG_KEY);
  const flagSet = flagPresent && copy[APPROVAL_FLAG_KEY] === true;
  delete copy[APPROVAL_FLAG_KEY];
  return { args: copy, flagPresent, flagSet };
}
