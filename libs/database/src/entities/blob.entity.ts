import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Bundle bytes, content-addressed: the key is the SHA-256 of the content, so equal bundles are stored once. */
@Entity({ name: 'blobs' })
export class Blob {
  @PrimaryColumn({ type: 'char', length: 64 })
  sha256: string;

  @Column({ type: 'integer' })
  size: number;

  @Column({ type: 'bytea', select: false })
  content: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
