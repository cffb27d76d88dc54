import { missingScopes } from './iam-scopes';

describe('missingScopes', () => {
  it('names every required scope no grant covers, in the order required', () => {
    expect(missingScopes(['repo:read', 'knowledge:read', 'permission:network_outbound'], ['knowledge:read'])).toEqual([
      'repo:read',
      'permission:network_outbound',
    ]);
    expect(missingScopes([], [])).toEqual([]);
  });

  it('lets a granted wildcard cover the actions of its own namespace only', () => {
    expect(missingScopes(['repo:read', 'repo:write'], ['repo:*'])).toEqual([]);
    expect(missingScopes(['repo:read'], ['rep:*', 'repos:*'])).toEqual(['repo:read']);
    expect(missingScopes(['mcp_servers:files-read'], ['mcp_servers:files-*'])).toEqual([]);
    expect(missingScopes(['mcp_servers:search'], ['mcp_servers:files-*'])).toEqual(['mcp_servers:search']);
  });

  it('asks for a required wildcard itself: a narrower grant never stands in for it', () => {
    expect(missingScopes(['repo:*'], ['repo:read'])).toEqual(['repo:*']);
    expect(missingScopes(['repo:*'], ['repo:*'])).toEqual([]);
    expect(missingScopes(['repo:read*'], ['repo:*'])).toEqual(['repo:read*']);
  });
});
