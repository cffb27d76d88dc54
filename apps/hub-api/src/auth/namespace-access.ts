import type { Namespace } from '@skillhub/database';
import { ForbiddenError } from './auth.errors';
import type { Principal } from './principal';

/** Whether the caller may act for this namespace: the operator always, a token when its publisher owns it. */
export function canActOn(principal: Principal, namespace: Namespace): boolean {
  if (principal.kind === 'admin') return true;
  if (namespace.ownerId !== principal.publisherId) return false;
  return principal.namespaceId === null || principal.namespaceId === namespace.id;
}

export function assertCanActOn(principal: Principal, namespace: Namespace): void {
  if (!canActOn(principal, namespace)) {
    throw new ForbiddenError(
      `Namespace "${namespace.slug}" belongs to another publisher, or this token is bound to another namespace.`,
    );
  }
}
