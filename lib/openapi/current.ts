import { env } from '@/lib/env';
import { buildOpenApiDocument, type OpenApiDocument } from './document';

// The document of this deployment, built once per process: /v1/openapi.json serves it, /docs renders it.
let built: { serverUrl: string; document: OpenApiDocument } | undefined;

export function currentOpenApiDocument(): OpenApiDocument {
  const serverUrl = env().APP_URL;
  if (built?.serverUrl !== serverUrl) built = { serverUrl, document: buildOpenApiDocument({ serverUrl }) };
  return built.document;
}
