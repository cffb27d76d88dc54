import { Module } from '@nestjs/common';
import { SkillsSearchController } from './skills-search.controller';
import { SkillsSearchService } from './skills-search.service';

@Module({ controllers: [SkillsSearchController], providers: [SkillsSearchService], exports: [SkillsSearchService] })
export class SearchModule {}
