import { z } from 'zod';
import { metadataInput, metadataQuery } from '@/lib/core/metadata';
import { listQuerySchema, positiveAmountSchema } from '@/lib/core/parse';

export const createRefundRequestInput = z.strictObject({
  payment_id: z.string().min(1).max(64),
  amount: positiveAmountSchema,
  reason: z.string().max(500).nullish(),
  crypto_refund_destination_note: z.string().min(1).max(1000).optional(),
  metadata: metadataInput.optional(),
});

export type CreateRefundRequestInput = z.output<typeof createRefundRequestInput>;

export const listRefundRequestsQuery = listQuerySchema({
  payment_id: z.string().max(64).optional(),
  status: z.enum(['requested', 'processing', 'completed', 'failed', 'declined', 'canceled']).optional(),
  metadata: metadataQuery.optional(),
});

/** The fail test helper's body: `{}`, or why the provider refused. */
export const failRefundInput = z.strictObject({
  failure_reason: z.string().min(1).max(500).optional(),
});
