/**
 * The OpenAPI document hub-api serves at /docs-json: the controllers' and DTOs' decorators, and
 * what decorators cannot say, added here. libs/hub-client commits it and generates its types
 * from it (scripts/openapi.js); CI fails when the committed copy differs from this.
 */
import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type MediaTypeObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { TOKEN_PREFIX } from './auth/token-secret';
import { BUNDLE_FIELD } from './common/bundle-upload.interceptor';
import { EXAMPLE } from './common/dto/api-examples';
import { PROBLEM_MEDIA_TYPE } from './common/dto/api-problems.decorator';
import { ProblemDto } from './common/dto/problem.response.dto';
import { HUB_VERSION } from './hub-version';

/** An example for each path parameter of the API, by name: the examples' paths are built from them. */
const PATH_EXAMPLES: Record<string, string> = {
  author: 'acme-labs',
  name: 'weather',
  version: '1.0.0',
  slug: 'acme-labs',
  index: '5',
  keyId: EXAMPLE.keyId,
  // The MCP Registry's server name, URL-encoded as it specifies, and its namespace (docs/mcp-registry.md).
  serverName: 'dev.skillhub.npm.acme%2Fweather-mcp',
  namespace: 'dev.skillhub.npm.acme',
};

/** `{id}` names a token under /tokens and a submission elsewhere. */
const pathExample = (path: string, name: string): string | undefined =>
  name === 'id' ? (path.startsWith('/api/v1/tokens/') ? EXAMPLE.tokenId : EXAMPLE.submissionId) : PATH_EXAMPLES[name];

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

const isReference = (value: object): value is ReferenceObject => '$ref' in value;

export function createApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Skill Hub')
    .setDescription(
      'Registry of agent skills and MCP servers, with explained and signed certification. Every refusal and ' +
        'failure is an RFC 9457 problem document (`application/problem+json`, schema ProblemDto) with a stable `code`.',
    )
    .setVersion(HUB_VERSION)
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      // Opaque: the hub looks the token up by its SHA-256; nothing in it can be decoded.
      bearerFormat: `opaque (${TOKEN_PREFIX}…)`,
      description: `A publisher token (\`${TOKEN_PREFIX}\` and 43 base64url characters, from POST /api/v1/tokens) or the operator token (HUB_ADMIN_TOKEN).`,
    })
    .build();
  const document = SwaggerModule.createDocument(app, config, { extraModels: [ProblemDto] });
  const problem = document.components?.schemas?.[ProblemDto.name];
  // RFC 9457 §3.2: a problem type may define members of its own (retry_after, existing_bundle_sha256…).
  if (problem && !isReference(problem)) problem.additionalProperties = true;
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) describeOperation(path, operation);
    }
  }
  return document;
}

/** What the decorators cannot express, the same way on every route. */
function describeOperation(path: string, operation: OperationObject): void {
  // OpenAPI 3.0 §4.7.12.1: an Authorization header parameter SHALL be ignored; the security
  // requirement says it (optional where a route reads the header itself, as validate does).
  operation.parameters = operation.parameters?.filter(
    (parameter) => isReference(parameter) || !(parameter.in === 'header' && /^authorization$/i.test(parameter.name)),
  );
  for (const parameter of operation.parameters ?? []) {
    if (!isReference(parameter)) describeParameter(path, parameter);
  }
  const body = operation.requestBody;
  const multipart = body && !isReference(body) ? body.content['multipart/form-data'] : undefined;
  if (multipart) describeUpload(multipart);
  const instance = path.replace(/\{(\w+)\}/g, (_, name: string) => pathExample(path, name) ?? name);
  for (const response of Object.values(operation.responses)) {
    if (response && !isReference(response)) showInstance(response, instance);
  }
}

function describeParameter(path: string, parameter: ParameterObject): void {
  const schema = parameter.schema as SchemaObject | undefined;
  if (parameter.in === 'path') {
    const example = pathExample(path, parameter.name);
    if (example === undefined) throw new Error(`api-document: no example for the path parameter ${parameter.name}`);
    parameter.example = schema?.type === 'number' || schema?.type === 'integer' ? Number(example) : example;
  }
  // The hub reads lists in a query as one comma list (`tags=a,b`), not as repeated parameters.
  if (parameter.in === 'query' && schema?.type === 'array') {
    parameter.style = 'form';
    parameter.explode = false;
  }
}

/** A multipart upload is one file, in the field BundleUploadInterceptor reads. */
function describeUpload(media: MediaTypeObject): void {
  media.schema = {
    type: 'object',
    required: [BUNDLE_FIELD],
    properties: {
      [BUNDLE_FIELD]: {
        type: 'string',
        format: 'binary',
        description: 'The bundle: a gzipped tar of one skill folder.',
      },
    },
  };
  media.encoding = { [BUNDLE_FIELD]: { contentType: 'application/gzip' } };
}

/** A problem example's `instance` is the path of the request it answers. */
function showInstance(response: ResponseObject, instance: string): void {
  const examples = response.content?.[PROBLEM_MEDIA_TYPE]?.examples ?? {};
  for (const example of Object.values(examples)) {
    if (!isReference(example)) example.value = { ...(example.value as object), instance };
  }
}
