/** The errors the sandbox lib throws: a policy that cannot be enforced as written is refused, never bent. */
import { DomainError } from '@skillhub/errors';

export const SANDBOX_INVALID_POLICY = 'SANDBOX.INVALID_POLICY';

/** Lists every bad path, variable and limit at once. */
export class SandboxPolicyError extends DomainError {
  constructor(readonly reasons: readonly string[]) {
    super(
      'invalid',
      SANDBOX_INVALID_POLICY,
      `invalid sandbox policy: ${reasons.join('; ')}`,
      reasons.map((message) => ({ path: 'policy', message, severity: 'error' as const })),
    );
  }
}
