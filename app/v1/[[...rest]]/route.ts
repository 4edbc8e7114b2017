import { routeNotFound } from '@/lib/http/route';

// Any /v1 path no route file claims: a JSON 404, never Next's HTML page.
export const GET = routeNotFound;
export const POST = routeNotFound;
export const PUT = routeNotFound;
export const PATCH = routeNotFound;
export const DELETE = routeNotFound;
