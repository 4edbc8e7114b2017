import { checkReadiness } from '@/lib/server/health';

export const dynamic = 'force-dynamic';

// GET /readyz – the process should get traffic: the database answers, migrations are applied, not shutting down
export async function GET() {
  const readiness = await checkReadiness();
  return Response.json(
    { status: readiness.ready ? 'ready' : 'unavailable', checks: readiness.checks },
    { status: readiness.ready ? 200 : 503, headers: { 'Cache-Control': 'no-store' } },
  );
}
