import { type DynamicModule, Module } from '@nestjs/common';
import { ConfigModule, type HubConfig } from '@skillhub/config';
import { HubConnectionCheck } from './hub-connection-check.service';
import { RuntimeService } from './runtime.service';

@Module({})
export class AgentRuntimeModule {
  static forRoot(config: HubConfig): DynamicModule {
    return {
      module: AgentRuntimeModule,
      imports: [ConfigModule.forRoot(config)],
      providers: [HubConnectionCheck, RuntimeService],
    };
  }
}
