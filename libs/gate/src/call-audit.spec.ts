import { auditView, DEFAULT_AUDIT_POLICY, MAX_AUDIT_VALUE_BYTES, parseRedactPath, readAuditPolicy } from './call-audit';

describe('readAuditPolicy: what a SwarmKit skill asks its audit trail to keep', () => {
  it('records shapes only when the skill says nothing, with no latency budget', () => {
    expect(readAuditPolicy(undefined, undefined)).toEqual({ ...DEFAULT_AUDIT_POLICY, redact: [], problems: [] });
  });

  it("takes SwarmKit's defaults by category when the skill says nothing: a decision's outputs in full, none of a persistence's", () => {
    expect(readAuditPolicy(undefined, undefined, 'decision')).toMatchObject({ inputs: 'summary', outputs: 'full' });
    expect(readAuditPolicy(undefined, undefined, 'persistence')).toMatchObject({ inputs: 'summary', outputs: 'none' });
    expect(readAuditPolicy(undefined, undefined, 'capability')).toMatchObject({
      inputs: 'summary',
      outputs: 'summary',
    });
    expect(readAuditPolicy({ log_outputs: 'summary' }, undefined, 'decision').outputs).toBe('summary');
  });

  it('reads the levels, the redact paths and max_latency_ms', () => {
    const policy = readAuditPolicy(
      { log_inputs: 'full', log_outputs: 'none', redact: ['$.password', '$.items[*].secret'] },
      { max_latency_ms: 250, timeout_seconds: 5 },
    );
    expect(policy).toMatchObject({ inputs: 'full', outputs: 'none', maxLatencyMs: 250, problems: [] });
    expect(policy.redact).toHaveLength(2);
  });

  it('falls back to summaries, saying why, when a redact path cannot be read', () => {
    const policy = readAuditPolicy({ log_inputs: 'full', log_outputs: 'full', redact: ['password'] }, {});
    expect(policy.inputs).toBe('summary');
    expect(policy.outputs).toBe('summary');
    expect(policy.problems.join(' ')).toMatch(/audit.redact "password" is not a path.*summaries only/);
  });

  it('treats an unknown level as summary and a budget below 1 ms as none', () => {
    expect(readAuditPolicy({ log_inputs: 'everything' }, { max_latency_ms: 0 })).toMatchObject({
      inputs: 'summary',
      maxLatencyMs: null,
    });
  });
});

describe('parseRedactPath', () => {
  it.each([
    ['$.password', [{ key: 'password' }]],
    ['$.user.token', [{ key: 'user' }, { key: 'token' }]],
    ['$.items[*].secret', [{ key: 'items' }, { every: true }, { key: 'secret' }]],
    ["$['odd key'].*", [{ key: 'odd key' }, { every: true }]],
  ])('reads %s', (path, steps) => expect(parseRedactPath(path)).toEqual(steps));

  it.each([
    ['no root', 'password'],
    ['the root alone', '$'],
    ['recursive descent', '$..password'],
    ['an index', '$.a[0]'],
    ['a space', '$.a b'],
    ['over 256 characters', `$.${'a'.repeat(300)}`],
  ])('refuses %s', (_, path) => expect(parseRedactPath(path)).toBeNull());
});

describe('auditView: what a record shows of a value', () => {
  const redact = readAuditPolicy({ redact: ['$.path', '$.rows[*].email'] }, {}).redact;

  it('shows a full value with the asked paths and every secret-named key redacted', () => {
    const view = auditView(
      { path: '/home/me/notes.txt', rows: [{ email: 'a@b.c', id: 1 }], api_key: 'sk-live-123', nested: { Token: 't' } },
      'full',
      redact,
    );
    expect(view).toEqual({
      path: '[redacted]',
      rows: [{ email: '[redacted]', id: 1 }],
      api_key: '[redacted]',
      nested: { Token: '[redacted]' },
    });
  });

  it("leaves the caller's value untouched", () => {
    const args = { path: '/x' };
    auditView(args, 'full', redact);
    expect(args).toEqual({ path: '/x' });
  });

  it('shows names and sizes in a summary, never values', () => {
    const args = { city: 'Oslo', days: 3 };
    expect(auditView(args, 'summary', [])).toEqual({ keys: ['city', 'days'], bytes: JSON.stringify(args).length });
    const part = { type: 'text', text: 'The secret plan.' };
    const view = auditView({ content: [part], isError: false }, 'summary', []);
    expect(view).toEqual({ isError: false, content: [{ type: 'text', bytes: JSON.stringify(part).length }] });
    expect(JSON.stringify(view)).not.toContain('secret plan');
  });

  it('shows nothing at none, and cuts a full value over the limit', () => {
    expect(auditView({ a: 1 }, 'none', [])).toBeUndefined();
    const big = auditView({ text: 'x'.repeat(MAX_AUDIT_VALUE_BYTES * 2) }, 'full', []);
    expect(big).toMatchObject({ truncated: true, bytes: MAX_AUDIT_VALUE_BYTES * 2 + 11 });
    expect(JSON.stringify(big).length).toBeLessThan(MAX_AUDIT_VALUE_BYTES);
  });
});
