/** The errors the gate's helpers throw; `decideToolCall` never throws, it turns any of them into a deny. */
import { DomainError } from '@skillhub/errors';

export const GATE_INVALID_TOOL_NAME = 'GATE.INVALID_TOOL_NAME';
export const GATE_INVALID_PRE_APPROVAL_POLICY = 'GATE.INVALID_PRE_APPROVAL_POLICY';

/** A server or tool name that would make `mcp__<server>__<tool>` ambiguous or unusable. */
export class InvalidToolNameError extends DomainError {
  constructor(
    message: string,
    readonly part: 'server' | 'tool' | 'namespaced',
  ) {
    super('invalid', GATE_INVALID_TOOL_NAME, message, [{ path: part, message, severity: 'error' }], { part });
  }
}

/** Lists every bad pattern at once, so an operator fixes the whole config in one round. */
export class InvalidPreApprovalPolicyError extends DomainError {
  constructor(readonly badPatterns: readonly { index: number; pattern: string; message: string }[]) {
    super(
      'invalid',
      GATE_INVALID_PRE_APPROVAL_POLICY,
      `invalid pre-approval policy: ${badPatterns.length} bad pattern(s), the first: ${badPatterns[0]?.message ?? 'none'}`,
      badPatterns.map((b) => ({ path: `allow[${b.index}]`, message: b.message, severity: 'error' as const })),
    );
  }
}
