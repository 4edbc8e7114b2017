import Link from 'next/link';

export default function HomePage() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Sandbox Payments</h1>
      <p className="mt-3 text-gray-600">
        Hosted checkout, refunds and signed webhooks for integration testing. Cards, USDC and Interac are all simulated;
        no money moves.
      </p>
      <div className="mt-8 flex gap-3">
        <Link
          href="/dashboard"
          className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700"
        >
          Dashboard
        </Link>
        <Link
          href="/docs"
          className="rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-medium text-gray-800 hover:bg-gray-50"
        >
          API reference
        </Link>
      </div>
    </main>
  );
}
