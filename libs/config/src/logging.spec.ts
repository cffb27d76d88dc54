import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { loadConfig } from './load-config';
import { createLogger, logFormat, nestLogger, type CreateLoggerOptions } from './logging';

/** Every ANSI colour code starts with ESC [. */
const ANSI = '\u001b[';

describe('logging', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'skillhub-logging-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Logs into a file, as a process whose output is redirected does, and returns the lines written. */
  function logToFile(
    env: Record<string, string>,
    write: (logger: ReturnType<typeof createLogger>) => void,
    options: Partial<CreateLoggerOptions> = {},
  ): string[] {
    const file = join(dir, 'out.log');
    const fd = openSync(file, 'w');
    try {
      write(createLogger(loadConfig(env), { name: 'test-app', fd, ...options }));
    } finally {
      closeSync(fd);
    }
    return readFileSync(file, 'utf8').split('\n').filter(Boolean);
  }

  it.each([
    [{}, 'text'],
    [{ NODE_ENV: 'production' }, 'json'],
    [{ LOG_FORMAT: 'json' }, 'json'],
    [{ NODE_ENV: 'production', LOG_FORMAT: 'text' }, 'text'],
  ])('format for %j: %s', (env, format) => {
    expect(logFormat(loadConfig(env))).toBe(format);
  });

  it('JSON: one object per line, with level, time, name and the fields logged', () => {
    const lines = logToFile({ LOG_FORMAT: 'json' }, (logger) => {
      logger.info({ status: 200 }, 'first');
      logger.warn('second\nwith a line break');
    });
    expect(lines).toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 'info', name: 'test-app', status: 200, msg: 'first' });
    expect(new Date(String(first!.time)).toISOString()).toBe(first!.time);
    expect(second).toMatchObject({ level: 'warn', msg: 'second\nwith a line break' });
  });

  it('text into a file: one readable line per entry and no ANSI colour codes', () => {
    const lines = logToFile({ NODE_ENV: 'development' }, (logger) => {
      logger.info({ context: 'http', request_id: 'req-12345678' }, 'GET /api/v1/health 200 3ms');
      logger.error({ context: 'ProblemFilter', detail: { a: 1 } }, 'failed');
    });
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toContain(ANSI);
    expect(lines[0]).toMatch(/INFO.*\[http\] GET \/api\/v1\/health 200 3ms \(request req-12345678\)$/);
    expect(lines[1]).toMatch(/ERROR.*\[ProblemFilter\] failed .*"detail":\{"a":1\}/);
  });

  it('LOG_LEVEL keeps Nest level names: "log" is info, "error" drops warnings', () => {
    const atLog = logToFile({ LOG_FORMAT: 'json', LOG_LEVEL: 'log' }, (logger) => {
      logger.debug('hidden');
      logger.info('shown');
    });
    expect(atLog.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['shown']);
    const atError = logToFile({ LOG_FORMAT: 'json', LOG_LEVEL: 'error' }, (logger) => {
      logger.warn('hidden');
      logger.error('shown');
    });
    expect(atError.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['shown']);
  });

  it("the context's fields are on every line logged within it; a line's own fields win", () => {
    let current: Record<string, unknown> | undefined = { request_id: 'from-context' };
    const lines = logToFile(
      { LOG_FORMAT: 'json' },
      (logger) => {
        logger.info('inside');
        logger.info({ request_id: 'own' }, 'own id');
        current = undefined;
        logger.info('outside');
      },
      { context: () => current },
    );
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((p) => p.request_id)).toEqual(['from-context', 'own', undefined]);
    // One key, not two: JSON.parse would hide a duplicate, the raw line does not.
    expect(lines[1]!.match(/"request_id"/g)).toHaveLength(1);
  });

  it('credentials in a logged object are redacted, in either format', () => {
    const secret = 'shp_live_0123456789abcdef';
    for (const env of [{ LOG_FORMAT: 'json' }, { LOG_FORMAT: 'text' }]) {
      const lines = logToFile(env, (logger) => {
        logger.info({ headers: { authorization: `Bearer ${secret}`, cookie: secret } }, 'headers');
        logger.info({ token: secret, request: { token: secret } }, 'token');
      });
      expect(lines.join('\n')).not.toContain(secret);
      expect(lines.join('\n')).toContain('[redacted]');
    }
  });

  it("nestLogger: Nest's log calls become one entry each, with the context as a field and errors with their stack", () => {
    const lines = logToFile({ LOG_FORMAT: 'json' }, (logger) => {
      const nest = nestLogger(logger);
      nest.log('ready', 'agent-runtime');
      nest.warn({ msg: 'slow', ms: 900 }, 'Queue');
      nest.error('GET /x failed', new Error('boom').stack, 'ProblemFilter');
    });
    const [ready, slow, failed] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(ready).toMatchObject({ level: 'info', context: 'agent-runtime', msg: 'ready' });
    expect(slow).toMatchObject({ level: 'warn', context: 'Queue', msg: 'slow', ms: 900 });
    expect(failed).toMatchObject({ level: 'error', context: 'ProblemFilter', msg: 'GET /x failed' });
    expect(String((failed!.err as { stack: string }).stack)).toContain('Error: boom');
  });

  it('two apps in one process each log through their own logger (nestjs-pino keeps one per process)', () => {
    // Both files open at once, so neither logger can write into the other's by a reused descriptor.
    const files = ['a.log', 'b.log'].map((name) => join(dir, name));
    const fds = files.map((file) => openSync(file, 'w'));
    try {
      const config = loadConfig({ LOG_FORMAT: 'json' });
      const [a, b] = fds.map((fd, i) => nestLogger(createLogger(config, { name: `app-${i}`, fd })));
      a!.log('one', 'A');
      b!.log('two', 'B');
    } finally {
      fds.forEach((fd) => closeSync(fd));
    }
    const [a, b] = files.map((file) => readFileSync(file, 'utf8').split('\n').filter(Boolean));
    expect(a!.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ name: 'app-0', msg: 'one' }),
    ]);
    expect(b!.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ name: 'app-1', msg: 'two' }),
    ]);
  });

  it("Nest's static Logger goes through the logger once it is installed", () => {
    const lines = logToFile({ LOG_FORMAT: 'json' }, (logger) => {
      Logger.overrideLogger(nestLogger(logger));
      try {
        new Logger('SomeService').log('through pino');
      } finally {
        Logger.overrideLogger(false);
      }
    });
    expect(JSON.parse(lines[0]!)).toMatchObject({ context: 'SomeService', msg: 'through pino' });
  });
});
