/**
 * SwarmKit's `iam.required_scopes` (`namespace:action`) against the scopes an operator grants a
 * skill. A granted scope covers a required one when it is the same, or when its action holds `*`
 * and matches (`repo:*` covers `repo:read`). A required scope that itself holds `*` asks for the
 * whole namespace, so only that very scope covers it: `repo:read` never stands in for `repo:*`.
 */

/** The required scopes no granted scope covers, in the order required. */
export function missingScopes(required: readonly string[], granted: readonly string[]): string[] {
  return required.filter((scope) => !granted.some((grant) => covers(grant, scope)));
}

function covers(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (required.includes('*') || !granted.includes('*')) return false;
  const [grantedSpace, grantedAction] = split(granted);
  const [requiredSpace, requiredAction] = split(required);
  return grantedSpace === requiredSpace && glob(grantedAction).test(requiredAction);
}

const split = (scope: string): [string, string] => {
  const at = scope.indexOf(':');
  return at < 0 ? [scope, ''] : [scope.slice(0, at), scope.slice(at + 1)];
};

/** Scopes are `[a-z0-9_*-]`: nothing in an action needs escaping but `*`. */
const glob = (action: string): RegExp =>
  new RegExp(`^${action.replace(/[^a-z0-9_*-]/g, '\\$&').replace(/\*/g, '.*')}$`);
