import { DANGER_KEYWORDS, SAFE_TOKENS, SENSITIVE_WORDS, classifyTool, explainToolClass } from './tool-classifier';

// A hard-coded copy of docs/kazma.md's classification, independent of the exported lists: deleting a
// keyword from the code (or mistyping one) fails these tables instead of shrinking them.
// prettier-ignore
const CONTRACT_DANGER = [
  'write', 'delete', 'remove', 'exec', 'run', 'shell', 'bash', 'command', 'kill', 'terminate', 'install', 'deploy',
  'upload', 'download', 'fetch', 'request', 'post', 'put', 'patch', 'replace', 'rename', 'create', 'update', 'modify',
  'alter', 'truncate', 'drop', 'grant', 'revoke', 'clear', 'purge', 'wipe', 'overwrite', 'reset',
];
// prettier-ignore
const CONTRACT_SENSITIVE = [
  'secret', 'password', 'passwd', 'credential', 'token', 'apikey', 'api_key', 'private', 'private_key', 'vault', 'auth',
  'cookie', 'session_key',
];
// prettier-ignore
const CONTRACT_SAFE = [
  'read', 'list', 'search', 'get', 'info', 'status', 'check', 'describe', 'query', 'count', 'exists', 'help', 'tree',
  'find', 'show', 'cat', 'view',
];

const union = (...lists: readonly (readonly string[])[]): string[] => [...new Set(lists.flat())].sort();

describe('keyword lists', () => {
  it('match docs/kazma.md exactly (nothing missing, nothing extra)', () => {
    expect([...DANGER_KEYWORDS].sort()).toEqual([...CONTRACT_DANGER].sort());
    expect([...SENSITIVE_WORDS].sort()).toEqual([...CONTRACT_SENSITIVE].sort());
    expect([...SAFE_TOKENS].sort()).toEqual([...CONTRACT_SAFE].sort());
    expect(CONTRACT_DANGER).toHaveLength(34);
    expect(CONTRACT_SENSITIVE).toHaveLength(13);
    expect(CONTRACT_SAFE).toHaveLength(17);
  });

  it('are frozen', () => {
    expect(Object.isFrozen(DANGER_KEYWORDS)).toBe(true);
    expect(Object.isFrozen(SENSITIVE_WORDS)).toBe(true);
    expect(Object.isFrozen(SAFE_TOKENS)).toBe(true);
  });

  it('no safe token contains a danger word (else it could never be safe)', () => {
    for (const token of CONTRACT_SAFE) {
      for (const word of [...CONTRACT_DANGER, ...CONTRACT_SENSITIVE]) expect(token.includes(word)).toBe(false);
    }
  });
});

describe('classifyTool: every danger keyword and sensitive word is danger', () => {
  const words = union(CONTRACT_DANGER, CONTRACT_SENSITIVE, DANGER_KEYWORDS, SENSITIVE_WORDS);

  it.each(words)('%s', (word) => {
    expect(classifyTool(word)).toBe('danger');
    expect(classifyTool(word.toUpperCase())).toBe('danger');
    // Substring, not token: glued to other letters it still counts.
    expect(classifyTool(`x${word}y`)).toBe('danger');
    // Danger wins over a safe token in the same name.
    expect(classifyTool(`get_${word}`)).toBe('danger');
    expect(classifyTool(`list-${word}-status`)).toBe('danger');
    // After the prefix is stripped.
    expect(classifyTool(`mcp__fs__${word}`)).toBe('danger');
    expect(classifyTool(`mcp__get_status_svc__${word}_thing`)).toBe('danger');
  });

  it.each(CONTRACT_DANGER)('%s is reported as a danger keyword', (word) => {
    expect(explainToolClass(`zz_${word}`)).toMatchObject({ toolClass: 'danger', rule: 'danger-keyword' });
  });

  it.each(CONTRACT_SENSITIVE)('%s is reported as a sensitive word', (word) => {
    // Danger keywords are checked first, so a sensitive word that contained one would report that.
    const expected = CONTRACT_DANGER.some((k) => word.includes(k)) ? 'danger-keyword' : 'sensitive-word';
    expect(explainToolClass(`zz_${word}`)).toMatchObject({ toolClass: 'danger', rule: expected });
  });
});

describe('classifyTool: every safe token is safe as a whole token', () => {
  const tokens = union(CONTRACT_SAFE, SAFE_TOKENS);

  it.each(tokens)('%s', (token) => {
    expect(classifyTool(token)).toBe('safe');
    expect(classifyTool(token.toUpperCase())).toBe('safe');
    expect(classifyTool(`${token}_items`)).toBe('safe');
    expect(classifyTool(`items-${token}`)).toBe('safe');
    expect(classifyTool(`my.${token}.v2`)).toBe('safe');
    expect(classifyTool(`mcp__srv__${token}`)).toBe('safe');
    expect(explainToolClass(`${token}_items`)).toMatchObject({ rule: 'safe-token', matched: token });
  });

  it.each(tokens)('%s glued to other letters is not a token, so unknown', (token) => {
    expect(classifyTool(`${token}zz`)).toBe('unknown');
    expect(classifyTool(`zz${token}`)).toBe('unknown');
  });
});

describe('classifyTool: the contract examples', () => {
  it.each([
    ['frobnicate', 'unknown'],
    ['catalog', 'unknown'],
    ['cat', 'safe'],
    ['list_files', 'safe'],
    ['get_secret', 'danger'],
    ['read-file', 'safe'],
    ['readme', 'unknown'],
    ['delete_file', 'danger'],
    ['get_status', 'safe'],
    ['', 'unknown'],
    ['get2', 'unknown'],
    ['read2file', 'unknown'],
    ['v2_read', 'safe'],
    ['get_runner', 'danger'],
    ['output_list', 'danger'], // "put" is a substring of "output": the contract is substring-based
    ['compute_count', 'danger'], // likewise "put" in "compute"
    ['author_list', 'danger'], // "auth"
    ['getApiKey', 'danger'], // lower-cased: "apikey"
    ['Get_Api_Key', 'danger'], // "api_key"
  ])('%j → %s', (name, expected) => {
    expect(classifyTool(name)).toBe(expected);
  });
});

describe('classifyTool: prefix stripping', () => {
  it.each([
    // A server name full of safe tokens cannot make its tool safe...
    ['mcp__get_status_svc__frobnicate', 'unknown'],
    ['mcp__list__frobnicate', 'unknown'],
    // ...and a server name full of danger words cannot make it danger: only the raw tool counts.
    ['mcp__shell_exec_svc__list_files', 'safe'],
    ['mcp__delete__get', 'safe'],
    // The prefix is recognised whatever its case, so case cannot smuggle the server's tokens in.
    ['MCP__get_status_svc__frobnicate', 'unknown'],
    ['Mcp__get_status_svc__frobnicate', 'unknown'],
    ['mcp__GET_STATUS_SVC__FROBNICATE', 'unknown'],
    // Split at the first "__" after the prefix; the tool keeps any later "__".
    ['mcp__svc__get__thing', 'safe'],
    ['mcp__svc___read', 'safe'],
    ['mcp__a_b_c__read', 'safe'],
    // Malformed: no server or no tool. Never safe; danger if a keyword occurs anywhere.
    ['mcp__get_status', 'unknown'],
    ['mcp____get', 'unknown'],
    ['mcp__get__', 'unknown'],
    ['mcp__', 'unknown'],
    ['mcp__delete_all', 'danger'],
    // Not the prefix at all.
    ['mcp_get_status', 'safe'],
    ['xmcp__get__frobnicate', 'safe'], // no prefix here, so "get" is a token of the raw name
  ])('%j → %s', (name, expected) => {
    expect(classifyTool(name)).toBe(expected);
  });

  it('reports the raw name it classified', () => {
    expect(explainToolClass('mcp__get_status_svc__Frobnicate')).toEqual({
      toolClass: 'unknown',
      rawName: 'Frobnicate',
      rule: 'no-keyword',
    });
    expect(explainToolClass('mcp__get_status')).toMatchObject({
      rule: 'malformed-namespace',
      rawName: 'mcp__get_status',
    });
  });
});

describe('classifyTool: hardening beyond ASCII (only ever tightens)', () => {
  it.each([
    ['ｄｅｌｅｔｅ_file', 'danger'], // fullwidth letters fold to "delete"
    ['de\u200Blete_file', 'danger'], // a zero-width space cannot split a keyword
    ['re\u0301move', 'danger'], // a combining accent cannot either
    ['\u212Aill', 'danger'], // Kelvin sign lower-cases to "k"
    ['ｌｉｓｔ', 'unknown'], // but fullwidth cannot earn "safe"
    ['list_caf\u00E9', 'unknown'], // any non-ASCII character: never safe
    ['get\u200B_x', 'unknown'],
    ['li\u0455t', 'unknown'], // Cyrillic look-alike
  ])('%j → %s', (name, expected) => {
    expect(classifyTool(name)).toBe(expected);
  });

  it('does not tokenise an over-long name, but still finds danger in it', () => {
    expect(classifyTool(`get_${'a'.repeat(2000)}`)).toBe('unknown');
    expect(classifyTool(`get_${'a'.repeat(2000)}_delete`)).toBe('danger');
  });

  it('treats a non-string as unknown instead of throwing', () => {
    expect(classifyTool(undefined as unknown as string)).toBe('unknown');
    expect(classifyTool(42 as unknown as string)).toBe('unknown');
  });
});
