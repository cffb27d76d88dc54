import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Namespace } from './namespace.entity';

/** A skill name under a namespace; its content lives in immutable versions. */
@Entity({ name: 'skills' })
@Index('skills_namespace_name_key', ['namespaceId', 'name'], { unique: true })
export class Skill {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'namespace_id', type: 'uuid' })
  namespaceId: string;

  @ManyToOne(() => Namespace, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'namespace_id' })
  namespace?: Namespace;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
