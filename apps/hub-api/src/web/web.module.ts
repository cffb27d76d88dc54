import { Module } from '@nestjs/common';
import { CertificationsModule } from '../certifications/certifications.module';
import { SearchModule } from '../search/search.module';
import { SkillsModule } from '../skills/skills.module';
import { TrustModule } from '../trust/trust.module';
import { WebController } from './web.controller';
import { WebQueries } from './web-queries.service';

/** The server-rendered pages, built on the same services as the API. */
@Module({
  imports: [CertificationsModule, SearchModule, SkillsModule, TrustModule],
  controllers: [WebController],
  providers: [WebQueries],
})
export class WebModule {}
