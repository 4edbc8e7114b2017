import { env } from '@/lib/env';
import type { ThrottleRule } from './service';

// Every throttle of the product, in one place; SECURITY.md's table names each. The limits that an
// operator may want to change come from the environment (.env.example lists them).

const MINUTE = 60;
const QUARTER_HOUR = 15 * MINUTE;
const HOUR = 60 * MINUTE;

export const throttles = {
  /** Guesses at one account from one address: past this, that address is refused for that account. */
  signInPerAddressAndEmail: (): ThrottleRule => ({ name: 'sign-in', limit: 5, windowSeconds: QUARTER_HOUR }),
  /** Failed sign-ins from one address over all accounts (password spraying). */
  signInPerAddress: (): ThrottleRule => ({ name: 'sign-in-address', limit: 20, windowSeconds: QUARTER_HOUR }),
  /**
   * Guesses at one account from anywhere. Past this each attempt is slowed down, never refused: refusing
   * would let anyone lock the owner out.
   */
  signInPerEmail: (): ThrottleRule => ({ name: 'sign-in-email', limit: 5, windowSeconds: QUARTER_HOUR }),
  signUpPerAddress: (): ThrottleRule => ({
    name: 'sign-up-address',
    limit: env().SIGN_UPS_PER_HOUR,
    windowSeconds: HOUR,
  }),
  linkCheckoutPerAddress: (): ThrottleRule => ({
    name: 'link-checkout-address',
    limit: env().LINK_CHECKOUTS_PER_MINUTE,
    windowSeconds: MINUTE,
  }),
  apiAuthFailurePerAddress: (): ThrottleRule => ({
    name: 'api-auth-failure-address',
    limit: env().API_AUTH_FAILURES_PER_MINUTE,
    windowSeconds: MINUTE,
  }),
};
