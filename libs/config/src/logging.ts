/**
 * How every app logs: through pino, one line per entry. JSON for log shippers (LOG_FORMAT=json, the
 * default with NODE_ENV=production); plain text for people otherwise, coloured only when the
 * destination is a terminal, so a log file never holds ANSI codes.
 */
import { isatty } from 'node:tty';
import type { LoggerService } from '@nestjs/common';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { HubConfig } from './env.schema';

export type LogFormat = 'json' | 'text';

type LoggingConfig = Pick<HubConfig, 'LOG_LEVEL' | 'LOG_FORMAT' | 'NODE_ENV'>;

export interface CreateLoggerOptions {
  /** The process, named in every entry. */
  name: string;
  /**
   * The file descriptor written to: 1 (stdout, the default), or 2 for a process whose stdout
   * carries a protocol (the agent-runtime's MCP stdio).
   */
  fd?: number;
  /** Fields for every entry logged in the current context (a request's id), or nothing outside one. */
  context?: () => Record<string, unknown> | undefined;
}

/** Nest's level names, which LOG_LEVEL keeps, as pino's. */
const PINO_LEVELS: Record<HubConfig['LOG_LEVEL'], pino.Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Credentials never reach a log line, whoever logs an object holding them. Paths are
 * case-sensitive: Node gives header names in lower case.
 */
const REDACTED = ['authorization', 'cookie', 'token'].flatMap((key) => [key, `*.${key}`, `*.headers.${key}`]);

/** Fields the text format shows in the line itself rather than in the trailing object. */
const SHOWN_INLINE = ['context', 'request_id'];
/** Fields the access line's message already says (see the hub's access log). */
const IN_ACCESS_MESSAGE = ['method', 'path', 'status', 'duration_ms'];

export function logFormat(config: Pick<HubConfig, 'LOG_FORMAT' | 'NODE_ENV'>): LogFormat {
  return config.LOG_FORMAT ?? (config.NODE_ENV === 'production' ? 'json' : 'text');
}

export function createLogger(config: LoggingConfig, options: CreateLoggerOptions): Logger {
  const fd = options.fd ?? 1;
  const context = options.context;
  const settings: LoggerOptions = {
    name: options.name,
    level: PINO_LEVELS[config.LOG_LEVEL],
    redact: { paths: REDACTED, censor: '[redacted]' },
    // The log call's own fields win over the context's.
    ...(context ? { mixin: () => context() ?? {} } : {}),
  };
  if (logFormat(config) === 'json') {
    return pino(
      {
        ...settings,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      pino.destination({ fd, sync: true }),
    );
  }
  return pino(settings, textStream(fd));
}

function textStream(fd: number): DestinationStream {
  return pretty({
    destination: fd,
    sync: true,
    colorize: isatty(fd),
    singleLine: true,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...SHOWN_INLINE, ...IN_ACCESS_MESSAGE].join(','),
    messageFormat: (log, messageKey) => {
      const where = typeof log.context === 'string' ? `[${log.context}] ` : '';
      const request = typeof log.request_id === 'string' ? ` (request ${log.request_id})` : '';
      return `${where}${String(log[messageKey] ?? '')}${request}`;
    },
  });
}

/** nestjs-pino's PinoLogger over this app's own logger, not over the one logger it keeps per process. */
class AppPinoLogger extends PinoLogger {
  constructor(private readonly own: Logger) {
    super({ pinoHttp: { logger: own } });
  }

  override get logger(): Logger {
    return this.own;
  }
}

/**
 * The Nest logger for `NestFactory.create(…, { logger })`: Nest's own lines and every
 * `new Logger(context)` of the app go through `logger`, with the context as a field.
 */
export function nestLogger(logger: Logger): LoggerService {
  return new QuietBootLogger(new AppPinoLogger(logger), {});
}

/** Nest's own start-up lines: each module loaded, each route mapped (48 of them for hub-api). */
const NEST_BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Nest's start-up lines at debug, so a start shows the few lines that matter (LOG_LEVEL=debug shows the rest). */
class QuietBootLogger extends NestPinoLogger {
  override log(message: unknown, ...rest: unknown[]): void {
    const context = rest[rest.length - 1];
    if (typeof context === 'string' && NEST_BOOT_CONTEXTS.has(context)) this.debug(message, ...rest);
    else super.log(message, ...rest);
  }
}
