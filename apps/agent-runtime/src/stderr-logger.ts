import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Logs to stderr only: stdout may carry the gateway's MCP stdio stream. */
export class StderrLogger extends ConsoleLogger {
  protected override printMessages(messages: unknown[], context?: string, logLevel?: LogLevel): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}
