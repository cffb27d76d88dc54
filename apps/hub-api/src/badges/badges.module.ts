import { Module } from '@nestjs/common';
import { CertificationsModule } from '../certifications/certifications.module';
import { BadgesController } from './badges.controller';
import { BadgesService } from './badges.service';

@Module({ imports: [CertificationsModule], controllers: [BadgesController], providers: [BadgesService] })
export class BadgesModule {}
