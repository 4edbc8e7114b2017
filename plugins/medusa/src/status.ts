import { PaymentSessionStatus } from '@medusajs/framework/utils';
import type { CheckoutSession, Payment } from '@sandbox-payments/client';

export type SandboxState = { session: CheckoutSession; payment?: Payment; declined: boolean };

/** What Medusa should make of a checkout session and its payment. */
export function sessionStatus({ session, payment, declined }: SandboxState): PaymentSessionStatus {
  if (payment) {
    switch (payment.status) {
      case 'succeeded':
        return PaymentSessionStatus.CAPTURED;
      case 'requires_capture':
        return PaymentSessionStatus.AUTHORIZED;
      case 'canceled':
        return PaymentSessionStatus.CANCELED;
      case 'failed':
        return PaymentSessionStatus.ERROR;
    }
  }
  if (session.status === 'expired') return PaymentSessionStatus.CANCELED;
  if (session.status === 'open') return declined ? PaymentSessionStatus.ERROR : PaymentSessionStatus.REQUIRES_MORE;
  return PaymentSessionStatus.PENDING;
}
