import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type HubConfig } from '@skillhub/config';
import { HubConnectionCheck } from './hub-connection-check.service';
import { RUNTIME_START, type RuntimeStart, RuntimeService } from './runtime.service';

@Module({})
export class AgentRuntimeModule {
  static forRoot(config: HubConfig, start: RuntimeStart): DynamicModule {
    return {
      module: AgentRuntimeModule,
      imports: [ConfigModule.forRoot(config)],
      providers: [HubConnectionCheck, RuntimeService, { provide: RUNTIME_START, useValue: start }],
    };
  }
}
