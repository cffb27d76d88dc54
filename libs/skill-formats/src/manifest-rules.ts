/** Field rules the formats share, and the values some formats take from the publish request. */
import type { Problem } from '@skillhub/errors';
import { echo, type StringRule } from './field.reader';
import { NAMESPACE_SLUG_PATTERN } from './slugify';
import type { ParseContext } from './skill.model';

/** Kazma skill names and SwarmKit ids. */
export const IDENTIFIER_RULE: StringRule = {
  max: 64,
  pattern: /^[a-z][a-z0-9-]*$/,
  patternHint: 'kebab-case: a lowercase letter, then lowercase letters, digits or "-"',
};

/** Strict `X.Y.Z`: no leading `v`, no leading zeros, no pre-release or build suffix. */
export const STRICT_VERSION = /^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)$/;

export const VERSION_RULE: StringRule = {
  max: 64,
  pattern: STRICT_VERSION,
  patternHint: 'a version X.Y.Z (three numbers, no "v", no pre-release)',
};

/**
 * Author and namespace from the publish request, for formats whose files name no author: the
 * publisher's namespace is both (it is already a slug, so `slugify` would leave it unchanged).
 */
export function publisherFromContext(
  context: ParseContext,
  formatLabel: string,
  problems: Problem[],
): { author: string; namespace: string } | null {
  const namespace = context.namespace;
  if (namespace === undefined || namespace === '') {
    problems.push(requestError('namespace', `${formatLabel} carry no author: the publisher's namespace is needed`));
    return null;
  }
  if (!NAMESPACE_SLUG_PATTERN.test(namespace)) {
    problems.push(
      requestError('namespace', `Namespace ${echo(namespace)} must be 1-39 characters of a-z, 0-9 and "-"`),
    );
    return null;
  }
  return { author: namespace, namespace };
}

/** Problems with the publish request point at the request's field, not at a file. */
export function requestError(field: 'namespace' | 'version', message: string): Problem {
  return { path: field, message, severity: 'error' };
}
