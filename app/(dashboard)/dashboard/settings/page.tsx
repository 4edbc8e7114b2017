import type { Metadata } from 'next';
import { ConfirmAction } from '@/components/dashboard/action-forms';
import { PageHeader, Panel } from '@/components/dashboard/page-header';
import { RelativeTime } from '@/components/dashboard/relative-time';
import {
  AddWebsiteForm,
  BusinessNameForm,
  PaymentMethodsForm,
  RefundPolicyForm,
} from '@/components/dashboard/settings-forms';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { TimeZoneForm } from '@/components/dashboard/time-zone-form';
import { requireMerchant } from '@/lib/auth/session';
import { getSettings } from '@/lib/merchants/dashboard';
import { listTimeZones } from '@/lib/core/time-zone';
import {
  addWebsiteAction,
  removeWebsiteAction,
  saveBusinessNameAction,
  savePaymentMethodsAction,
  saveRefundPolicyAction,
  saveTimeZoneAction,
} from './actions';

export const metadata: Metadata = { title: 'Settings' };

export default async function SettingsPage() {
  const { email, context } = await requireMerchant();
  const merchant = await getSettings(context);
  return (
    <>
      <PageHeader
        title="Settings"
        description="Your sandbox connection: who you are to customers, where they may return, how they pay, how refunds are approved."
      />
      <div className="space-y-6">
        <Panel id="business" title="Business">
          <BusinessNameForm action={saveBusinessNameAction} name={merchant.name} />
        </Panel>

        <Panel
          id="websites"
          title="Approved websites"
          description="A checkout session’s return_url and cancel_url must be on one of these hosts."
        >
          <div className="space-y-5">
            <div className="rounded-lg bg-gray-50 px-4 py-3 text-sm text-gray-700">
              <p className="font-medium text-gray-900">The exact-host rule</p>
              <p className="mt-1">
                A URL matches only when its host — name and port — is exactly one approved here. There are no wildcards
                and subdomains do not count: approving <code className="font-mono text-xs">shop.example.com</code>{' '}
                allows <code className="font-mono text-xs">https://shop.example.com/thanks</code>, but not{' '}
                <code className="font-mono text-xs">www.shop.example.com</code> or{' '}
                <code className="font-mono text-xs">shop.example.com:8080</code>. Other hosts get{' '}
                <code className="font-mono text-xs">400 url_not_approved</code>.
              </p>
            </div>
            {merchant.websites.length === 0 ? (
              <p className="rounded-lg border border-dashed border-gray-300 px-4 py-6 text-center text-sm text-gray-600">
                No websites yet. Add the host of your shop (for local development, something like{' '}
                <code className="font-mono text-xs">localhost:4000</code>) before creating checkout sessions.
              </p>
            ) : (
              <ul aria-label="Approved websites" className="divide-y divide-gray-100 rounded-lg ring-1 ring-gray-200">
                {merchant.websites.map((website) => (
                  <li key={website.host} className="flex items-center justify-between gap-3 px-4 py-2.5">
                    <span className="min-w-0">
                      <span className="block truncate font-mono text-sm text-gray-900">{website.host}</span>
                      <span className="block text-xs text-gray-600">
                        Added <RelativeTime value={website.createdAt} />
                      </span>
                    </span>
                    <ConfirmAction
                      action={removeWebsiteAction}
                      fields={{ host: website.host }}
                      trigger={
                        <>
                          Remove<span className="sr-only"> {website.host}</span>
                        </>
                      }
                      triggerVariant="ghost"
                      title={`Remove ${website.host}?`}
                      description="New checkout sessions can no longer return to this host. Sessions already created keep their URLs."
                      confirmLabel="Remove website"
                      pendingLabel="Removing…"
                    />
                  </li>
                ))}
              </ul>
            )}
            <AddWebsiteForm action={addWebsiteAction} />
          </div>
        </Panel>

        <Panel
          id="methods"
          title="Payment methods"
          description="What customers may pay with. A session offers the approved methods that serve its currency."
        >
          <PaymentMethodsForm action={savePaymentMethodsAction} methods={merchant.paymentMethods} />
        </Panel>

        <Panel
          id="refunds"
          title="Refund policy"
          description="Every refund is authorized before it goes to the provider. Choose who authorizes it."
        >
          <RefundPolicyForm action={saveRefundPolicyAction} policy={merchant.refundPolicy} />
        </Panel>

        <Panel
          id="time-zone"
          title="Time zone"
          description="Which day a payment falls on depends on it: 02:00 UTC is still the evening before in Los Angeles."
        >
          <TimeZoneForm action={saveTimeZoneAction} saved={merchant.timeZone} zones={listTimeZones()} />
        </Panel>

        <Panel id="account" title="Account">
          <div className="flex flex-col gap-3 text-sm sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="text-gray-900">
                Signed in as <span className="font-medium">{email}</span>
              </p>
              <p className="mt-0.5 text-gray-600">
                Account <code className="font-mono text-xs">{merchant.id}</code> · created{' '}
                <RelativeTime value={merchant.createdAt} />
              </p>
            </div>
            <SignOutButton />
          </div>
        </Panel>
      </div>
    </>
  );
}
