import { Mutation, Resolver } from '@nestjs/graphql';
import { Allow, Ctx, Permission, RequestContext, Transaction } from '@vendure/core';
import { parse } from 'graphql';
import { SandboxPaymentsService, type SandboxCheckout } from './sandbox-payments.service';

export const shopApiExtensions = parse(`
  "A hosted checkout of Sandbox Payments: send the customer to url"
  type SandboxPaymentsCheckout {
    id: String!
    url: String!
  }

  extend type Mutation {
    "Moves the active order to ArrangingPayment and makes a sandbox checkout session for its total"
    createSandboxPaymentsCheckout: SandboxPaymentsCheckout!
  }
`);

@Resolver()
export class SandboxPaymentsShopResolver {
  constructor(private readonly service: SandboxPaymentsService) {}

  @Mutation()
  @Transaction()
  @Allow(Permission.Owner)
  createSandboxPaymentsCheckout(@Ctx() ctx: RequestContext): Promise<SandboxCheckout> {
    return this.service.createCheckout(ctx);
  }
}
