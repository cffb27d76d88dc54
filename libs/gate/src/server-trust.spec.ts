import { resolveEffectiveTrust } from './server-trust';

describe('resolveEffectiveTrust', () => {
  const dev = { production: false, trustedInProdAllowed: false };
  const prod = { production: true, trustedInProdAllowed: false };
  const prodAllowed = { production: true, trustedInProdAllowed: true };

  it.each([
    ['approval_required', dev, 'approval_required', 0],
    [undefined, prod, 'approval_required', 0],
    ['trusted', dev, 'trusted', 0],
    ['trusted', prodAllowed, 'trusted', 0],
    ['trusted', prod, 'approval_required', 1],
    // No environment, or one that does not say production: false, counts as production.
    ['trusted', undefined, 'approval_required', 1],
    ['trusted', { trustedInProdAllowed: false }, 'approval_required', 1],
    ['trusted', { production: 'no', trustedInProdAllowed: true }, 'trusted', 0],
    ['trusted', { production: true, trustedInProdAllowed: 'yes' }, 'approval_required', 1],
    // An unrecognised value never grants trust.
    ['Trusted', dev, 'approval_required', 1],
    ['yes', dev, 'approval_required', 1],
  ])('%j in %j → %s', (declared, environment, trust, reasonCount) => {
    const result = resolveEffectiveTrust(declared, environment);
    expect(result.trust).toBe(trust);
    expect(result.reasons).toHaveLength(reasonCount);
  });

  it('names the variable when production ignores trust', () => {
    expect(resolveEffectiveTrust('trusted', prod).reasons[0]).toContain('KAZMA_MCP_TRUSTED_IN_PROD=1');
  });
});
