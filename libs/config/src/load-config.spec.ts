import { loadConfig } from './load-config';

describe('loadConfig', () => {
  it.each([
    ['1', true],
    ['0', false],
    ['true', false],
    [' 1', false],
    ['', false],
    [undefined, false],
  ])("reads Kazma's switches as Kazma does: %j is %s", (raw, on) => {
    const env = raw === undefined ? {} : { KAZMA_MCP_TRUSTED_IN_PROD: raw, KAZMA_MCP_INHERIT_ENV: raw };
    expect(loadConfig(env)).toMatchObject({ KAZMA_MCP_TRUSTED_IN_PROD: on, KAZMA_MCP_INHERIT_ENV: on });
  });

  it('names every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'eighty', HUB_DATA_DIR_RESERVE_MB: '-1' })).toThrow(
      /PORT: .*\n.*HUB_DATA_DIR_RESERVE_MB: /s,
    );
  });
});
