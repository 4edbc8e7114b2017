import Link from 'next/link';
import { classNames } from '@/components/ui/class-names';
import { CheckIcon, ChevronRightIcon } from '@/components/ui/icons';

type Step = { done: boolean; title: string; detail: string; href: string };

/** Home for a new account: the four steps from sign-up to a verified payment, ticked as they happen. */
export function SetupChecklist({
  progress,
}: {
  progress: { hasWebsite: boolean; hasKey: boolean; hasSession: boolean; hasEndpoint: boolean };
}) {
  const steps: Step[] = [
    {
      done: progress.hasWebsite,
      title: 'Approve your website',
      detail: 'Return and cancel URLs must be on a host you approved.',
      href: '/dashboard/settings#websites',
    },
    {
      done: progress.hasKey,
      title: 'Create an API key',
      detail: 'Your server uses it to create checkout sessions.',
      href: '/dashboard/developers/api-keys',
    },
    {
      done: progress.hasSession,
      title: 'Create a checkout session',
      detail: 'POST /v1/checkout-sessions, then send the customer to its url.',
      href: '/dashboard/checkout-sessions',
    },
    {
      done: progress.hasEndpoint,
      title: 'Receive webhooks',
      detail: 'Confirm payments from a signed event, not from the customer’s return.',
      href: '/dashboard/developers/webhooks',
    },
  ];
  const remaining = steps.filter((step) => !step.done).length;
  if (remaining === 0) return null;
  return (
    <section aria-labelledby="setup-title" className="rounded-xl bg-white shadow-sm ring-1 ring-gray-200">
      <div className="border-b border-gray-100 px-5 py-4">
        <h2 id="setup-title" className="text-base font-semibold text-gray-900">
          Get started
        </h2>
        <p className="mt-0.5 text-sm text-gray-600">
          {steps.length - remaining} of {steps.length} done. Each step links to where you do it.
        </p>
      </div>
      <ol className="divide-y divide-gray-100">
        {steps.map((step, index) => (
          <li key={step.title}>
            <Link
              href={step.href}
              className="group flex items-center gap-4 px-5 py-3.5 hover:bg-gray-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-accent-600"
            >
              <span
                className={classNames(
                  'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
                  step.done ? 'bg-green-100 text-green-800' : 'bg-gray-100 text-gray-700',
                )}
              >
                {step.done ? <CheckIcon /> : index + 1}
                <span className="sr-only">{step.done ? ' (done)' : ' (to do)'}</span>
              </span>
              <span className="min-w-0 flex-1">
                <span
                  className={classNames(
                    'block text-sm font-medium',
                    step.done ? 'text-gray-500 line-through' : 'text-gray-900',
                  )}
                >
                  {step.title}
                </span>
                <span className="block text-sm text-gray-600">{step.detail}</span>
              </span>
              <ChevronRightIcon className="size-4 shrink-0 text-gray-400 group-hover:text-gray-600" />
            </Link>
          </li>
        ))}
      </ol>
    </section>
  );
}
