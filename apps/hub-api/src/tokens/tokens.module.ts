import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { TokensController } from './tokens.controller';
import { TokensService } from './tokens.service';
import { WhoamiController } from './whoami.controller';
import { WhoamiService } from './whoami.service';

@Module({
  imports: [AuthModule],
  controllers: [TokensController, WhoamiController],
  providers: [TokensService, WhoamiService],
  exports: [TokensService],
})
export class TokensModule {}
