// GET /healthz – the process is up (liveness); touches nothing else, so it is also the benchmark's floor
export function GET() {
  return Response.json({ status: 'ok' }, { headers: { 'Cache-Control': 'no-store' } });
}
