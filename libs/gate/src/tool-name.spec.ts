import { InvalidToolNameError } from './gate.errors';
import {
  isValidServerName,
  isValidToolName,
  namespacedToolName,
  parseNamespacedToolName,
  serverNameProblem,
} from './tool-name';

describe('namespacedToolName / parseNamespacedToolName', () => {
  it.each([
    ['fs', 'read_file', 'mcp__fs__read_file'],
    ['get_status_svc', 'frobnicate', 'mcp__get_status_svc__frobnicate'],
    ['a-b_c', 'x', 'mcp__a-b_c__x'],
    ['svc', '_leading', 'mcp__svc___leading'],
    ['svc', 'has__double', 'mcp__svc__has__double'],
    ['svc', 'mcp__other__tool', 'mcp__svc__mcp__other__tool'],
    ['S1', 'Tool.v2-x', 'mcp__S1__Tool.v2-x'],
  ])('(%j, %j) ⇄ %j', (server, tool, name) => {
    expect(namespacedToolName(server, tool)).toBe(name);
    expect(parseNamespacedToolName(name)).toEqual({ server, tool });
  });

  it.each([
    ['a__b', '"__"'],
    ['svc_', 'start or end'],
    ['_svc', 'start or end'],
    ['', 'non-empty'],
    ['my.server', 'only letters'],
    ['my server', 'only letters'],
    ['s'.repeat(65), 'at most 64'],
  ])('refuses the server name %j', (server, message) => {
    expect(() => namespacedToolName(server, 'x')).toThrow(InvalidToolNameError);
    expect(serverNameProblem(server)).toContain(message);
    expect(isValidServerName(server)).toBe(false);
  });

  it.each(['', 'has space', 'slash/x', 't'.repeat(129), 'naïve'])('refuses the tool name %j', (tool) => {
    expect(() => namespacedToolName('svc', tool)).toThrow(InvalidToolNameError);
    expect(isValidToolName(tool)).toBe(false);
  });

  it('round-trips every valid combination of awkward underscores', () => {
    const servers = ['a', 'a_b', 'a_b_c', 'a-_-b', 'x1_2'];
    const tools = ['t', '_t', '__t', 't_', 't__', 'a__b__c', '_'];
    for (const server of servers) {
      for (const tool of tools)
        expect(parseNamespacedToolName(namespacedToolName(server, tool))).toEqual({ server, tool });
    }
  });

  it.each([
    'fs__read', // no prefix
    'MCP__fs__read', // the prefix is exact when routing
    'mcp__fs', // no separator
    'mcp____read', // empty server
    'mcp__fs__', // empty tool
    'mcp___fs__read', // server would start with "_"
    'mcp__fs__read file', // invalid tool
    `mcp__fs__${'t'.repeat(200)}`,
  ])('parses %j as null', (name) => {
    expect(parseNamespacedToolName(name)).toBeNull();
  });

  it('parses a non-string as null', () => {
    expect(parseNamespacedToolName(undefined)).toBeNull();
    expect(parseNamespacedToolName({})).toBeNull();
  });
});
