import { describeFailure, type ServerFailure } from './server-failure';

const failure = (overrides: Partial<ServerFailure>): ServerFailure => ({
  error: 'MCP error -32000: Connection closed',
  exit: null,
  stderr: '',
  network: false,
  grantTo: ['acme/weather'],
  ...overrides,
});

describe('describeFailure', () => {
  it('says how the server ended and the last thing it wrote', () => {
    expect(
      describeFailure(
        failure({ exit: { code: 1, signal: null }, stderr: 'starting\n\u001b[31mError: no config\u001b[0m\n' }),
      ),
    ).toBe('the server exited with code 1; stderr: "Error: no config"');
    expect(describeFailure(failure({ exit: { code: null, signal: 'SIGKILL' } }))).toBe(
      'the server was killed by SIGKILL (a sandbox limit on CPU time or memory, often)',
    );
    expect(describeFailure(failure({ error: 'connect timed out after 30000 ms' }))).toBe(
      'connect timed out after 30000 ms',
    );
  });

  it('names the grant that gives network to a server that could not reach anything without it', () => {
    const offline = failure({
      exit: { code: 1, signal: null },
      stderr: 'Error: getaddrinfo EAI_AGAIN api.weather.example\n',
    });

    expect(describeFailure(offline)).toBe(
      'the server exited with code 1; stderr: "Error: getaddrinfo EAI_AGAIN api.weather.example"; it looks like it needs network access, which its sandbox does not give: add grants: { "acme/weather": { network: true } } to the runtime config',
    );
    expect(describeFailure({ ...offline, network: true })).not.toContain('grants');
    expect(describeFailure({ ...offline, grantTo: [] })).toContain('set sandbox: { network: true } on it');
  });
});
