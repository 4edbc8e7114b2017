// Runs once when a Next.js server process starts.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startServerProcess } = await import('@/lib/server/startup');
  await startServerProcess();
}
