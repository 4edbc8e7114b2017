import { Code } from './code-block';
import { DocSection } from './doc-section';

export type RateLimits = {
  key: { perSecond: number; burst: number };
  merchant: { perSecond: number; burst: number };
  authFailuresPerMinute: number;
};

/** This deployment's limits (README, Configuration: RATE_LIMIT_* and API_AUTH_FAILURES_PER_MINUTE). */
export function RateLimitsSection({ limits }: { limits: RateLimits }) {
  const { key, merchant } = limits;
  return (
    <DocSection
      id="rate-limits"
      title="Rate limits"
      lead="Per API key, and per account for all its keys together; the numbers are this server’s."
    >
      <p>
        A key may make <strong>{key.perSecond}</strong> requests a second, and up to <strong>{key.burst}</strong> in one
        second now and then: the {key.burst - key.perSecond} extra come back every 10 seconds. An account’s keys
        together may make {merchant.perSecond} a second, bursting to {merchant.burst}, so more keys do not mean more
        requests. Past either, the answer is <Code>429 rate_limited</Code> with <Code>Retry-After</Code> in seconds.
        Every answer carries <Code>RateLimit-Limit</Code>, <Code>RateLimit-Remaining</Code> and{' '}
        <Code>RateLimit-Reset</Code> for the key.
      </p>
      <p>
        Unknown or malformed keys count per client address: after {limits.authFailuresPerMinute} in a minute, that
        address is answered <Code>429 rate_limited</Code> until its <Code>Retry-After</Code> has passed.
      </p>
    </DocSection>
  );
}
