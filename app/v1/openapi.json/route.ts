import { routes } from '@/lib/api/route';
import { newId } from '@/lib/ids';
import { currentOpenApiDocument } from '@/lib/openapi/current';

// Built at the first request, not at build time: the server URL in it is this deployment's APP_URL.
export const dynamic = 'force-dynamic';

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/openapi.json – the OpenAPI 3.1 document of this API; public (no key), like the docs it feeds
  GET: async () =>
    Response.json(currentOpenApiDocument(), {
      headers: {
        'Request-Id': newId('request'),
        'Cache-Control': 'public, max-age=300',
        'Access-Control-Allow-Origin': '*',
      },
    }),
});
