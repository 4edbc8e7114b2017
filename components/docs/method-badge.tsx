const TONES: Record<string, string> = {
  GET: 'bg-blue-50 text-blue-800 ring-blue-200',
  POST: 'bg-green-50 text-green-800 ring-green-200',
  DELETE: 'bg-red-50 text-red-800 ring-red-200',
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={`inline-block w-12 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-[11px] font-semibold ring-1 ring-inset ${TONES[method] ?? 'bg-gray-100 text-gray-800 ring-gray-200'}`}
    >
      {method}
    </span>
  );
}
