import { z } from 'zod';
import { parse } from '@/lib/core/parse';
import { queryParameters } from '@/lib/http/query';
import { errorResponse, routes } from '@/lib/http/route';
import { newId } from '@/lib/core/ids';
import { currentOpenApiDocument } from '@/lib/openapi/current';

// Built at the first request, not at build time: the server URL in it is this deployment's APP_URL.
export const dynamic = 'force-dynamic';

// it takes no query parameter, and refuses an unknown one as every /v1 endpoint does
const noQuery = z.strictObject({});

export const { GET, POST, PUT, PATCH, DELETE } = routes({
  // GET /v1/openapi.json – the OpenAPI 3.1 document of this API; public (no key), like the docs it feeds
  GET: async (request) => {
    const requestId = newId('request');
    try {
      parse(noQuery, queryParameters(new URL(request.url)));
    } catch (error) {
      return errorResponse(error, requestId, request);
    }
    return Response.json(currentOpenApiDocument(), {
      headers: { 'Request-Id': requestId, 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
    });
  },
});
