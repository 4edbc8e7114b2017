/** A monogram standing in for the merchant's logo (merchants have no logo upload yet). */
export function MerchantMark({ name }: { name: string }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase() ?? '?';
  return (
    <span
      aria-hidden="true"
      className="grid size-8 shrink-0 place-items-center rounded-full bg-accent-600 text-sm font-semibold text-white"
    >
      {initial}
    </span>
  );
}
