// Rows for the data benchmark (scripts/bench-data.ts) and the EXPLAIN test (lib/db/explain.test.ts): n paid
// orders of one merchant, each with its session, one item and its payment, made by INSERT … SELECT over
// generate_series in the real schema, so a million take a minute rather than an hour of API calls. Every
// tenth attempt failed (its session expired, its order unpaid), one payment in refundEvery (20) was half refunded,
// every fiftieth session came from a payment link; created_at spreads evenly over the last `days` days. Sessions,
// payments and refunds carry metadata as a platform's would: their order's reference (`order_id`, one row's
// own) and `channel: web` (every row's).

type Queryable = { query: (text: string, values?: unknown[]) => Promise<unknown> };

export type SeedOptions = {
  merchantId: string;
  count: number;
  /** a few base62 characters that make this seed's ids and order references its own */
  tag: string;
  days?: number;
  /** events, webhook deliveries and attempts, and API request logs, one each per this many payments */
  logEvery?: number;
  /** a completed refund of half the amount on one payment in this many (an odd number of them) */
  refundEvery?: number;
  /** payment links; one session in 50 came from one of them */
  links?: number;
  /**
   * false: without the triggers and foreign-key checks (session_replication_role, a superuser's setting),
   * then Home's figures recounted in one statement; twice as fast for a million rows
   */
  triggers?: boolean;
};

/** The seeded ids and references for a row number, as the statements below write them. */
export function seededIds(tag: string, n: number) {
  const body = tag + String(n).padStart(24 - tag.length, '0');
  return {
    order: `ord_${body}`,
    session: `cs_${body}`,
    payment: `pay_${body}`,
    reference: `order-${tag}-${n}`,
  };
}

export async function seedPayments(client: Queryable, options: SeedOptions): Promise<void> {
  if (options.triggers === false) await client.query('SET session_replication_role = replica');
  try {
    await insertRows(client, options);
  } finally {
    if (options.triggers === false) await client.query('RESET session_replication_role');
  }
  if (options.triggers === false) await recountPaymentFigures(client, options.merchantId);
}

/** The metadata of row g: its order's reference (one row's own) and a pair every row has. */
const METADATA = `jsonb_build_object('order_id', 'order-' || $3::text || '-' || g, 'channel', 'web')`;

async function insertRows(client: Queryable, options: SeedOptions): Promise<void> {
  const { merchantId, count, tag, days = 365, logEvery = 10, refundEvery = 20, links = 10 } = options;
  const ids = (prefix: string, tagParam = '$3') =>
    `'${prefix}' || ${tagParam}::text || lpad(g::text, ${24 - tag.length}, '0')`;
  const at = `now() - make_interval(secs => (g::float8 / $2) * $4 * 86400)`;
  const values = [merchantId, count, tag, days];
  await client.query(
    `INSERT INTO "payment_links" ("id", "merchant_id", "name", "amount", "currency", "created_at")
     SELECT 'pl_' || $2::text || lpad(l::text, ${24 - tag.length}, '0'), $1, 'Link ' || l, 2500, 'USD',
            now() - make_interval(days => $3::int)
     FROM generate_series(1, $4::int) AS l`,
    [merchantId, tag, days, links],
  );
  await client.query(
    `INSERT INTO "orders" ("id", "merchant_id", "reference", "status", "payment_id", "created_at")
     SELECT ${ids('ord_')}, $1, 'order-' || $3::text || '-' || g, CASE WHEN g % 10 = 0 THEN 'unpaid' ELSE 'paid' END::"OrderStatus",
            CASE WHEN g % 10 = 0 THEN NULL ELSE ${ids('pay_')} END, ${at}
     FROM generate_series(1, $2::int) AS g`,
    values,
  );
  await client.query(
    `INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "status", "currency",
       "amount", "shipping_amount", "tax_amount", "payment_methods", "return_url", "payment_id", "expires_at",
       "created_at", "completed_at", "expired_at", "payment_link_id", "metadata")
     SELECT ${ids('cs_')}, $1, ${ids('ord_')}, 'order-' || $3::text || '-' || g,
            CASE WHEN g % 10 = 0 THEN 'expired' ELSE 'complete' END::"CheckoutSessionStatus",
            CASE WHEN g % 4 = 0 THEN 'CAD' ELSE 'USD' END::"Currency", 1000 + g % 9000, 0, 0,
            ARRAY['card', 'usdc', 'interac']::"PaymentMethod"[], 'https://shop.example.com/thanks',
            CASE WHEN g % 10 = 0 THEN NULL ELSE ${ids('pay_')} END, ${at} + interval '1 hour', ${at},
            CASE WHEN g % 10 = 0 THEN NULL ELSE ${at} END, CASE WHEN g % 10 = 0 THEN ${at} + interval '1 hour' END,
            CASE WHEN g % 50 = 0 THEN 'pl_' || $3::text || lpad((g / 50 % $5 + 1)::text, ${24 - tag.length}, '0') END,
            ${METADATA}
     FROM generate_series(1, $2::int) AS g`,
    [...values, links],
  );
  await client.query(
    `INSERT INTO "checkout_items" ("checkout_session_id", "position", "name", "quantity", "unit_amount")
     SELECT ${ids('cs_', '$2')}, 0, 'Item ' || g % 100, 1, 1000 + g % 9000 FROM generate_series(1, $1::int) AS g`,
    [count, tag],
  );
  await client.query(
    `INSERT INTO "payments" ("id", "merchant_id", "order_id", "order_reference", "checkout_session_id", "status",
       "amount", "currency", "payment_method", "method_details", "failure_code", "amount_reserved",
       "amount_refunded", "created_at", "payment_link_id", "metadata")
     SELECT ${ids('pay_')}, $1, ${ids('ord_')}, 'order-' || $3::text || '-' || g, ${ids('cs_')},
            CASE WHEN g % 10 = 0 THEN 'failed' ELSE 'succeeded' END::"PaymentStatus", 1000 + g % 9000,
            CASE WHEN g % 4 = 0 THEN 'CAD' ELSE 'USD' END::"Currency",
            (ARRAY['card', 'usdc', 'interac'])[g % 3 + 1]::"PaymentMethod",
            CASE g % 3 WHEN 0 THEN '{"card":{"brand":"visa","last4":"4242","exp_month":12,"exp_year":2030}}'
                       WHEN 1 THEN '{"usdc":{"network":"ethereum","payer_address":"0x0","transaction_hash":"0x0"}}'
                       ELSE '{"interac":{"email_masked":null,"bank":null}}' END::jsonb,
            CASE WHEN g % 10 = 0 THEN 'card_declined' END,
            CASE WHEN g % $5 = 1 THEN (1000 + g % 9000) / 2 ELSE 0 END,
            CASE WHEN g % $5 = 1 THEN (1000 + g % 9000) / 2 ELSE 0 END, ${at},
            CASE WHEN g % 50 = 0 THEN 'pl_' || $3::text || lpad((g / 50 % $6 + 1)::text, ${24 - tag.length}, '0') END,
            ${METADATA}
     FROM generate_series(1, $2::int) AS g`,
    [...values, refundEvery, links],
  );
  await client.query(
    `INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "status",
       "processing_at", "created_at", "updated_at", "metadata")
     SELECT 'rr_' || $3::text || lpad(g::text, ${24 - tag.length}, '0'), $1, ${ids('pay_')}, (1000 + g % 9000) / 2,
            CASE WHEN g % 4 = 0 THEN 'CAD' ELSE 'USD' END::"Currency", 'completed', ${at}, ${at}, ${at}, ${METADATA}
     FROM generate_series(1, $2::int) AS g WHERE g % $5 = 1`,
    [...values, refundEvery],
  );
  await seedLogs(client, { merchantId, count, tag, days, logEvery });
}

/** Events (with a delivery and its attempt to one endpoint each) and API request logs. */
async function seedLogs(
  client: Queryable,
  options: Required<Omit<SeedOptions, 'refundEvery' | 'links' | 'triggers'>>,
): Promise<void> {
  const { merchantId, count, tag, days, logEvery } = options;
  const logs = Math.floor(count / logEvery);
  const id = (prefix: string) => `'${prefix}' || $3::text || lpad(g::text, ${24 - tag.length}, '0')`;
  const at = `now() - make_interval(secs => (g::float8 / $2) * $4 * 86400)`;
  const values = [merchantId, logs, tag, days];
  await client.query(
    `INSERT INTO "webhook_endpoints" ("id", "merchant_id", "url", "events", "secret")
     VALUES ('we_' || $2::text || lpad('1', ${24 - tag.length}, '0'), $1, 'https://shop.example.com/hooks', ARRAY['*'], 'whsec_bench')`,
    [merchantId, tag],
  );
  await client.query(
    `INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
     SELECT ${id('evt_')}, $1, 'payment.succeeded',
            jsonb_build_object('object', jsonb_build_object('id', 'pay_' || $3::text || lpad((g * ${logEvery})::text, ${24 - tag.length}, '0'))), ${at}
     FROM generate_series(1, $2::int) AS g`,
    values,
  );
  await client.query(
    `INSERT INTO "webhook_deliveries" ("id", "event_id", "event_type", "endpoint_id", "status", "attempt_count",
       "last_attempt_at", "created_at")
     SELECT 'whd_' || substr(ev."id", 5), ev."id", ev."type", e."id", 'succeeded', 1, ev."created_at", ev."created_at"
     FROM "events" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = ev."merchant_id"
     WHERE ev."merchant_id" = $1`,
    [merchantId],
  );
  await client.query(
    `INSERT INTO "webhook_attempts" ("delivery_id", "attempt", "response_status", "duration_ms", "created_at")
     SELECT d."id", 1, 200, 40, d."created_at"
     FROM "webhook_deliveries" AS d JOIN "webhook_endpoints" AS e ON e."id" = d."endpoint_id"
     WHERE e."merchant_id" = $1`,
    [merchantId],
  );
  await client.query(
    `INSERT INTO "api_request_logs" ("merchant_id", "method", "path", "status", "duration_ms", "request_id", "created_at")
     SELECT $1, 'GET', '/v1/payments/' || ${id('pay_')}, CASE WHEN g % 50 = 0 THEN 404 ELSE 200 END, 12,
            ${id('req_')}, ${at}
     FROM generate_series(1, $2::int) AS g`,
    values,
  );
}

/** Home's figures of one merchant, recounted from its payments and refunds (as the migration first did). */
async function recountPaymentFigures(client: Queryable, merchantId: string): Promise<void> {
  const quarter = (column: string) => `date_bin('15 minutes', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
  await client.query('DELETE FROM "payment_figures" WHERE "merchant_id" = $1', [merchantId]);
  await client.query(
    `INSERT INTO "payment_figures"
       ("merchant_id", "period_start", "currency", "slot", "gross", "succeeded", "failed", "refunded", "refunds")
     SELECT $1, "period_start", "currency", 0, sum("gross"), sum("succeeded"), sum("failed"), sum("refunded"), sum("refunds")
     FROM (
       SELECT ${quarter('"created_at"')} AS "period_start", "currency",
              CASE WHEN "status" = 'succeeded' THEN "amount" ELSE 0 END AS "gross",
              ("status" = 'succeeded')::int AS "succeeded", ("status" = 'failed')::int AS "failed", 0 AS "refunded", 0 AS "refunds"
       FROM "payments" WHERE "merchant_id" = $1
       UNION ALL
       SELECT ${quarter('"created_at"')}, "currency", 0, 0, 0, "amount", 1
       FROM "refund_requests" WHERE "merchant_id" = $1 AND "status" IN ('requested', 'processing', 'completed')
     ) AS rows
     GROUP BY "period_start", "currency"`,
    [merchantId],
  );
}
