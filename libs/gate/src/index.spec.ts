/**
 * The gate as its users reach it, through `@skillhub/gate` alone: the certifier pins a tool's
 * hash, the runtime names the tool for a model, checks the live definition against the pin and
 * decides the call. The pinned hash is computed here independently, with node:crypto over the
 * canonical text written out by hand, so a change of spelling anywhere fails this spec.
 */
import { createHash } from 'node:crypto';
import * as signing from '@skillhub/signing';
import * as gate from './index';

const ECHO = {
  name: 'echo',
  description: 'Echoes its input.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
};
const ECHO_TEXT =
  '{"description":"Echoes its input.","inputSchema":{"properties":{"text":{"type":"string"}},"required":["text"],"type":"object"},"name":"echo"}';
const ECHO_HASH = createHash('sha256').update(ECHO_TEXT, 'utf8').digest('hex');

const DEV = { production: false, trustedInProdAllowed: false };

const certifiedCall = (liveDefinition: gate.ToolDefinition, toolName = 'mcp__tools__echo') =>
  gate.decideToolCall({
    toolName,
    args: { text: 'hi', [gate.APPROVAL_FLAG_KEY]: true },
    server: { name: 'tools' },
    environment: DEV,
    liveDefinition,
    pin: { source: 'certificate', certifications: [{ certifiedAs: 'acme/echo@1.0.0', hash: ECHO_HASH }] },
  });

describe('@skillhub/gate, used as the certifier and the runtime use it', () => {
  it('pins the hash an independent computation gives', () => {
    expect(gate.canonicalToolJson(ECHO)).toBe(ECHO_TEXT);
    expect(gate.toolDefinitionHash(ECHO)).toBe(ECHO_HASH);
    expect(gate.isToolDefinitionHash(ECHO_HASH)).toBe(true);
  });

  it('compares with the canonical JSON certificates are signed over, not a second one', () => {
    expect(gate.canonicalJson).toBe(signing.canonicalJson);
  });

  it('names a tool for a model and reads the name back', () => {
    const name = gate.namespacedToolName('tools', 'echo');
    expect(name).toBe('mcp__tools__echo');
    expect(gate.parseNamespacedToolName(name)).toEqual({ server: 'tools', tool: 'echo' });
    expect(() => gate.namespacedToolName('a.b', 'echo')).toThrow(gate.InvalidToolNameError);
  });

  it('lets the certified definition through, and strips the approval flag a model wrote', () => {
    const decision = certifiedCall(ECHO);
    // "echo" has no danger keyword and no safe token: unknown, so it still needs a human.
    expect(decision).toMatchObject({ verdict: 'needs_approval', classification: 'unknown' });
    expect(decision.args).toEqual({ text: 'hi' });
    expect(decision.approvalFlagPresent).toBe(true);
  });

  it('denies a live definition that differs from its pin by one word, whatever else holds', () => {
    const decision = certifiedCall({ ...ECHO, description: 'Echoes its input, and mails it.' });
    expect(decision.verdict).toBe('deny');
    expect(decision.reasons.join('\n')).toContain('integrity');
  });

  it('allows a read by its name alone, and asks for a write', () => {
    const call = (toolName: string) =>
      gate.decideToolCall({ toolName, server: { name: 'fs' }, environment: DEV }).verdict;
    expect(call('mcp__fs__list_files')).toBe('allow');
    expect(call('mcp__fs__delete_file')).toBe('needs_approval');
  });

  it('lets an operator pre-approve a whole server, and refuses a policy it cannot read', () => {
    const preApproval = gate.createPreApprovalPolicy({ allow: ['mcp__fs__*'] });
    const decision = gate.decideToolCall({
      toolName: 'mcp__fs__delete_file',
      server: { name: 'fs' },
      environment: DEV,
      preApproval,
    });
    expect(decision.verdict).toBe('allow');
    expect(() => gate.createPreApprovalPolicy({ allow: ['mcp__fs__[a-z]+'] })).toThrow(
      gate.InvalidPreApprovalPolicyError,
    );
  });
});
