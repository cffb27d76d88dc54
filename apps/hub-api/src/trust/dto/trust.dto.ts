import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { EXAMPLE } from '../../common/dto/api-examples';

const ROOT_HASH = 'ab1c3d5e7f90a2b4c6d8e0f1a3b5c7d9e1f20a4b6c8d0e2f4a6b8c0d2e4f6a8b';
const LEAF_HASH = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';

export class PublicKeyDto {
  @ApiProperty({ description: 'SHA-256 of the SPKI public key, hex.', example: EXAMPLE.keyId }) keyid: string;
  @ApiProperty({ enum: ['ed25519'], example: 'ed25519' }) algorithm: 'ed25519';
  @ApiProperty({ example: EXAMPLE.publicKeyPem }) public_key_pem: string;
  @ApiProperty({ example: '2025-10-01T08:00:00.000Z' }) not_before: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Set once the key was retired; it still verifies what it signed before.',
    example: null,
  })
  not_after: string | null;
}

export class DsseSignatureDto {
  @ApiProperty({ description: 'The signing key (its SHA-256, hex).', example: EXAMPLE.keyId }) keyid: string;
  @ApiProperty({
    description: 'Base64 of the raw Ed25519 signature over the DSSE pre-authentication encoding.',
    example: 'c2lnbmF0dXJlIGJ5dGVzLCA2NCBvZiB0aGVt',
  })
  sig: string;
}

/** A DSSE envelope (in-toto's signing format): the payload's bytes and their signatures. */
export class DsseEnvelopeDto {
  @ApiProperty({
    description: 'What the payload is: a certificate statement, or the revocation list.',
    example: 'application/vnd.skillhub.certificate+json',
  })
  payloadType: string;
  @ApiProperty({
    description: 'Base64 of the payload bytes (canonical JSON).',
    example: 'eyJza2lsbCI6ImFjbWUtbGFicy93ZWF0aGVyIn0=',
  })
  payload: string;
  @ApiProperty({ type: [DsseSignatureDto] }) signatures: DsseSignatureDto[];
}

export class KeysResponseDto {
  @ApiProperty({ type: [PublicKeyDto] }) keys: PublicKeyDto[];
}

export class CheckpointDto {
  @ApiProperty({ description: "The log's name, first line of the note.", example: 'skillhub.local/log' })
  origin: string;
  @ApiProperty({ type: 'integer', example: 42 }) tree_size: number;
  @ApiProperty({ description: 'RFC 6962 root, hex.', example: ROOT_HASH }) root_hash: string;
  @ApiProperty({
    description: 'The signed checkpoint in C2SP signed-note form.',
    example: 'skillhub.local/log\n42\nq1c3nb6ErZtdr5Ybr0MeKBr6hd0ZzhVFNjYVE1Jw7Gg=\n\n— skillhub.local/log W5Dx…\n',
  })
  note: string;
}

export class LogEntryDto {
  @ApiProperty({ type: 'integer', example: 5 }) index: number;
  @ApiProperty({ enum: ['certification', 'revocation'], example: 'certification' }) kind: string;
  @ApiProperty({
    description: 'The exact text hashed into the leaf.',
    example:
      '{"payloadType":"application/vnd.skillhub.certificate+json","payload":"eyJza2lsbCI6ImFjbWUtbGFicy93ZWF0aGVyIn0=","signatures":[{"keyid":"5b0e…","sig":"c2ln…"}]}',
  })
  leaf_data: string;
  @ApiProperty({ description: 'RFC 6962 leaf hash, hex.', example: LEAF_HASH }) leaf_hash: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What the entry records, to read without decoding leaf_data.',
    example: { skill: 'acme-labs/weather', version: '1.0.0', level: 'standard', keyId: EXAMPLE.keyId },
  })
  summary: object;
}

export class ProofDto {
  @ApiProperty({ type: [String], description: 'Hashes, hex, in RFC 9162 order.', example: [LEAF_HASH, ROOT_HASH] })
  hashes: string[];
  @ApiProperty({ type: 'integer', example: 42 }) tree_size: number;
  @ApiProperty({ description: 'Root of the tree the proof is for, hex.', example: ROOT_HASH }) root_hash: string;
}

export class InclusionQueryDto {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'The entry.', example: 5 })
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  index: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The size of the tree the proof is for.', example: 42 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  tree_size: number;
}

export class ConsistencyQueryDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'The size of the older tree.', example: 40 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  first: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The size of the newer tree.', example: 42 })
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  second: number;
}

export class CertificateResponseDto {
  /** Typed as stored (JSON); it is always the envelope the hub signed. */
  @ApiProperty({ type: DsseEnvelopeDto, description: 'The DSSE envelope over the certificate statement.' })
  envelope: object;
  @ApiProperty({ example: EXAMPLE.keyId }) key_id: string;
  @ApiProperty({ type: 'integer', example: 5 }) log_index: number;
  @ApiProperty({ example: '2025-10-21T09:30:00.000Z' }) issued_at: string;
  @ApiProperty({ example: '2026-10-21T09:30:00.000Z' }) expires_at: string;
  @ApiProperty({ type: CheckpointDto }) checkpoint: CheckpointDto;
  @ApiProperty({
    type: [String],
    description: "Inclusion proof of the entry in the checkpoint's tree.",
    example: [LEAF_HASH, ROOT_HASH],
  })
  inclusion_proof: string[];
}

export class RevokeRequestDto {
  @ApiProperty({
    description: 'Why, shown to users and recorded in the log.',
    minLength: 3,
    maxLength: 1000,
    example: 'the bundle sends the API key to a third party',
  })
  @IsString()
  @MinLength(3)
  @MaxLength(1000)
  reason: string;
}

export class KazmaSecretRequestDto {
  @ApiProperty({
    description: "The namespace's Kazma KAZMA_SECRET (stored sealed; never returned).",
    minLength: 16,
    maxLength: 512,
    example: 'a-long-kazma-secret-of-the-namespace',
  })
  @IsString()
  @MinLength(16)
  @MaxLength(512)
  secret: string;
}
