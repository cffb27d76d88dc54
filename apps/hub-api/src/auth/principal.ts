import type { TokenScope } from '@skillhub/database';

/** Who is calling: the operator (HUB_ADMIN_TOKEN) or a publisher's token. */
export type Principal =
  | { kind: 'admin' }
  | { kind: 'token'; tokenId: string; publisherId: string; scopes: readonly TokenScope[]; namespaceId: string | null };

export const hasScope = (p: Principal, scope: TokenScope): boolean => p.kind === 'admin' || p.scopes.includes(scope);
