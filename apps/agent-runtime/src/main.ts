/**
 * agent-runtime: checks that KAZMA_HUB_URL answers, installs the certified skills of its
 * RUNTIME_CONFIG (verified offline), starts the servers their certificates let run in the
 * sandbox and the servers its operator configures, and serves their tools behind the gate.
 */
import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createLogger, loadConfigOrExit, nestLogger } from '@skillhub/config';
import { AgentRuntimeModule } from './agent-runtime.module';

/** Its log goes to stderr: stdout may carry the gateway's MCP stdio stream. */
const STDERR = 2;

async function bootstrap(): Promise<void> {
  const config = loadConfigOrExit();
  const app = await NestFactory.createApplicationContext(AgentRuntimeModule.forRoot(config), {
    logger: nestLogger(createLogger(config, { name: 'agent-runtime', fd: STDERR })),
  });
  app.enableShutdownHooks();
  new Logger('agent-runtime').log('ready');
}

bootstrap().catch((err: Error) => {
  console.error(`agent-runtime failed to start: ${err.message}`);
  process.exit(1);
});
