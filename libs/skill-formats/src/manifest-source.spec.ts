import { formatFieldPath, problemPath } from './manifest-source';

describe('formatFieldPath', () => {
  it.each<[readonly (string | number)[], string]>([
    [['name'], 'name'],
    [['mcp_servers', 0, 'type'], 'mcp_servers[0].type'],
    [['allowed-tools', 1], 'allowed-tools[1]'],
    [['tools', 'net.fetch', 'description'], 'tools["net.fetch"].description'],
    [['tools', 'a"b'], 'tools["a\\"b"]'],
    [['tools', 'k'.repeat(100)], `tools["${'k'.repeat(64)}…"]`],
  ])('%j → %s', (path, text) => {
    expect(formatFieldPath(path)).toBe(text);
  });
});

describe('problemPath', () => {
  it('joins the file and the field path with #', () => {
    expect(problemPath('skill_manifest.yaml', ['mcp_servers', 0, 'type'])).toBe(
      'skill_manifest.yaml#mcp_servers[0].type',
    );
    expect(problemPath('SKILL.md', [])).toBe('SKILL.md');
  });
});
