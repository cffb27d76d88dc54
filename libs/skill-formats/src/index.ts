export * from './skill.model';
