/**
 * Names for the generated types (hub-api.openapi.ts) that HubClient's methods take and return:
 * aliases and narrowings only, so the contract is written once, by the hub's DTOs.
 */
import type { components, operations } from './hub-api.openapi';

type Schemas = components['schemas'];
type QueryOf<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;

export type HealthResponse = Schemas['HealthResponseDto'];
export type ReadinessResponse = Schemas['ReadinessResponseDto'];

export type SkillListItem = Schemas['SkillListItemDto'];
export type SkillListResponse = Schemas['SkillListResponseDto'];
export type KazmaSearchResponse = Schemas['KazmaSearchResponseDto'];
export type StatsResponse = Schemas['StatsResponseDto'];
export type SkillFormat = SkillListItem['format'];
export type CertificationLevel = SkillListItem['certification_level'];

export type SkillResponse = Schemas['SkillResponseDto'];
export type SkillVersionResponse = Schemas['SkillVersionResponseDto'];
export type VersionSummary = Schemas['VersionSummaryDto'];
export type CertificationSummary = Schemas['CertificationSummaryDto'];
export type BundleFile = Schemas['BundleFileDto'];
export type PublishResponse = Schemas['PublishResponseDto'];
export type ValidateSkillResponse = Schemas['ValidateSkillResponseDto'];
export type VersionStatus = VersionSummary['status'];
export type VersionStatusChange = Schemas['UpdateVersionStatusRequestDto'];

export type CertificationStatusResponse = Schemas['CertificationStatusDto'];
export type CertificateResponse = Schemas['CertificateResponseDto'];
export type DsseEnvelope = Schemas['DsseEnvelopeDto'];
export type KeysResponse = Schemas['KeysResponseDto'];
export type PublicKey = Schemas['PublicKeyDto'];
export type PublisherKey = Schemas['PublisherKeyDto'];
export type PublisherKeysResponse = Schemas['PublisherKeysResponseDto'];
export type Checkpoint = Schemas['CheckpointDto'];
export type LogEntry = Schemas['LogEntryDto'];
export type Proof = Schemas['ProofDto'];

export type SubmitSkillResponse = Schemas['SubmitSkillResponseDto'];
/** What Kazma's `hub submit` sends besides the manifest. */
export type SubmitOptions = Omit<Schemas['SubmitSkillRequestDto'], 'manifest'>;

export type CreateTokenRequest = Schemas['CreateTokenRequestDto'];
export type TokenResponse = Schemas['TokenResponseDto'];
export type CreatedTokenResponse = Schemas['CreatedTokenResponseDto'];
export type TokenScope = TokenResponse['scopes'][number];
export type WhoamiResponse = Schemas['WhoamiResponseDto'];

/** An RFC 9457 problem document as the hub writes it, with the members its code adds. */
export type ProblemDocument = Schemas['ProblemDto'];

/** What a bundle's files may not say (`namespace`, `version`), for publish and validate. */
export type PublishOptions = QueryOf<'SkillsController_publish'>;
export type KazmaSearchOptions = Omit<QueryOf<'SkillsSearchController_kazmaSearch'>, 'q'>;
export type BadgeOptions = QueryOf<'BadgesController_svg'>;

type ListQuery = QueryOf<'SkillsSearchController_list'>;
type PageParams = Pick<ListQuery, 'page' | 'per_page'>;
type CursorParams = Pick<ListQuery, 'limit' | 'cursor'>;
type None<T> = { [K in keyof T]?: never };
/** Filters of `GET /api/v1/skills`; lists are sent as the comma lists the hub reads. */
export type SkillFilters = Omit<ListQuery, keyof PageParams | keyof CursorParams>;
/** Page paging or cursor paging: the hub refuses a query that mixes them, so the type does too. */
export type ListSkillsQuery = SkillFilters & ((PageParams & None<CursorParams>) | (CursorParams & None<PageParams>));
/** `iterateSkills` pages by cursor itself; `limit` is the page size (at most 100). */
export type IterateSkillsQuery = SkillFilters & Pick<CursorParams, 'limit'>;
