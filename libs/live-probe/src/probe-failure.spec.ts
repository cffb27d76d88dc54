import { probeFailureDetail, type ProbeFailure } from './probe-failure';

const failure = (overrides: Partial<ProbeFailure>): ProbeFailure => ({
  timedOut: false,
  timeoutMs: 15_000,
  exit: null,
  stderr: '',
  error: null,
  ...overrides,
});

describe('probeFailureDetail', () => {
  it('says a server that exits for want of a variable needs a secret, quoting its words', () => {
    const detail = probeFailureDetail(
      failure({
        exit: { code: 1, signal: null },
        stderr: 'Starting weather server\nError: WEATHER_API_KEY environment variable is required\n',
        error: 'MCP error -32000: Connection closed',
      }),
    );

    expect(detail).toBe(
      'the server exited with code 1 before listing its tools; it looks like it needs a secret or an environment variable to start; list its tools without one, or declare it; stderr: "Error: WEATHER_API_KEY environment variable is required"',
    );
  });

  it('says a server that fails to resolve or connect needs network, quoting the line that shows it', () => {
    const detail = probeFailureDetail(
      failure({
        exit: { code: 1, signal: null },
        stderr: 'Error: getaddrinfo EAI_AGAIN api.example.com\n    at GetAddrInfoReqWrap.onlookup\nNode.js v20.20.2\n',
      }),
    );

    expect(detail).toBe(
      'the server exited with code 1 before listing its tools; it looks like it needs network access to start, which the certifier does not give; stderr: "Error: getaddrinfo EAI_AGAIN api.example.com"',
    );
  });

  it('says when it timed out, with the last thing the server wrote', () => {
    expect(probeFailureDetail(failure({ timedOut: true, timeoutMs: 2_500, stderr: 'waiting for stdin...\n' }))).toBe(
      'the server did not list its tools within 2.5 s; stderr: "waiting for stdin..."',
    );
  });

  it('says which signal killed it', () => {
    expect(probeFailureDetail(failure({ exit: { code: 137, signal: 'SIGKILL' } }))).toBe(
      'the server was killed by SIGKILL, often a sandbox limit on CPU time or memory',
    );
  });

  it("gives the client's error when the server said nothing and is still running", () => {
    expect(probeFailureDetail(failure({ error: 'MCP error -32601: Method not found' }))).toBe(
      'the server did not answer the MCP handshake and tools/list; MCP error -32601: Method not found',
    );
  });

  it('quotes plain text only: colours and control characters removed', () => {
    const detail = probeFailureDetail(
      failure({ exit: { code: 2, signal: null }, stderr: '\u001b[31mfatal:\u001b[0m bad\u0007 flag\n' }),
    );

    expect(detail).toBe('the server exited with code 2 before listing its tools; stderr: "fatal: bad  flag"');
  });
});
