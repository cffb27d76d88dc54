import * as gate from './index';

describe('@skillhub/gate public API', () => {
  it.each([
    'classifyTool',
    'explainToolClass',
    'namespacedToolName',
    'parseNamespacedToolName',
    'canonicalToolJson',
    'toolDefinitionHash',
    'decideToolCall',
    'createPreApprovalPolicy',
    'matchesPreApproval',
    'isTrustedInProdAllowed',
  ])('exports %s', (name) => {
    expect(typeof (gate as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the keyword lists and the reserved flag key', () => {
    expect(gate.DANGER_KEYWORDS).toContain('delete');
    expect(gate.SENSITIVE_WORDS).toContain('secret');
    expect(gate.SAFE_TOKENS).toContain('list');
    expect(gate.APPROVAL_FLAG_KEY).toBe('__approve');
  });
});
