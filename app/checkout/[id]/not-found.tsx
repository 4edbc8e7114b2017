import { ReceiptIcon } from '@/components/ui/icons';

// An unknown or malformed checkout id: the same look as the hosted page, and nothing about any merchant.
export default function CheckoutNotFound() {
  return (
    <main className="mx-auto flex w-full max-w-md flex-col items-center px-4 pt-16 pb-12 text-center md:pt-24">
      <div className="w-full rounded-2xl bg-white px-6 py-10 shadow-sm ring-1 ring-gray-200">
        <ReceiptIcon className="mx-auto size-12 text-gray-500" />
        <h1 className="mt-4 text-xl font-semibold text-gray-900">Checkout not found</h1>
        <p className="mt-2 text-sm text-gray-600">
          This checkout link is not valid. Check that you copied the whole link, or go back to the store and start
          checking out again.
        </p>
        <p className="mt-6 text-xs text-gray-600">Error 404</p>
      </div>
    </main>
  );
}
