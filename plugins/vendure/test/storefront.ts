import gql from 'graphql-tag';
import type { SimpleGraphQLClient } from '@vendure/testing';
import { expect } from 'vitest';

// A storefront's checkout through the Shop API, up to the plugin's mutation: the steps a Vendure storefront
// takes before it sends the customer to the hosted page.

type Checkout = { orderCode: string; total: number; checkoutSessionId: string; url: string };

export async function checkout(shop: SimpleGraphQLClient, email: string): Promise<Checkout> {
  await shop.asAnonymousUser();
  const { products } = await shop.query(gql`
    {
      products {
        items {
          variants {
            id
          }
        }
      }
    }
  `);
  const variantId = products.items[0].variants[0].id;
  const { addItemToOrder } = await shop.query(
    gql`
      mutation ($id: ID!) {
        addItemToOrder(productVariantId: $id, quantity: 2) {
          ... on Order {
            code
          }
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    { id: variantId },
  );
  expect(addItemToOrder.errorCode).toBeUndefined();
  const { setCustomerForOrder } = await shop.query(
    gql`
      mutation ($input: CreateCustomerInput!) {
        setCustomerForOrder(input: $input) {
          ... on Order {
            code
          }
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    { input: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: email } },
  );
  expect(setCustomerForOrder.errorCode).toBeUndefined();
  const address = {
    fullName: 'Ada Lovelace',
    streetLine1: '1 Main St',
    city: 'Springfield',
    postalCode: '12345',
    countryCode: 'US',
  };
  await shop.query(
    gql`
      mutation ($a: CreateAddressInput!) {
        setOrderShippingAddress(input: $a) {
          ... on Order {
            code
          }
        }
      }
    `,
    {
      a: address,
    },
  );
  await shop.query(
    gql`
      mutation ($a: CreateAddressInput!) {
        setOrderBillingAddress(input: $a) {
          ... on Order {
            code
          }
        }
      }
    `,
    {
      a: address,
    },
  );
  const { eligibleShippingMethods } = await shop.query(gql`
    {
      eligibleShippingMethods {
        id
      }
    }
  `);
  const { setOrderShippingMethod } = await shop.query(
    gql`
      mutation ($ids: [ID!]!) {
        setOrderShippingMethod(shippingMethodId: $ids) {
          ... on Order {
            code
            totalWithTax
          }
          ... on ErrorResult {
            errorCode
            message
          }
        }
      }
    `,
    { ids: [eligibleShippingMethods[0].id] },
  );
  expect(setOrderShippingMethod.errorCode).toBeUndefined();
  const { createSandboxPaymentsCheckout } = await shop.query(gql`
    mutation {
      createSandboxPaymentsCheckout {
        id
        url
      }
    }
  `);
  return {
    orderCode: setOrderShippingMethod.code,
    total: setOrderShippingMethod.totalWithTax,
    checkoutSessionId: createSandboxPaymentsCheckout.id,
    url: createSandboxPaymentsCheckout.url,
  };
}

export const ORDER_QUERY = gql`
  query ($code: String!) {
    orders(options: { filter: { code: { eq: $code } } }) {
      items {
        id
        code
        state
        totalWithTax
        payments {
          id
          state
          amount
          transactionId
          metadata
          refunds {
            id
            state
            total
            transactionId
          }
        }
      }
    }
  }
`;

export async function orderByCode(admin: SimpleGraphQLClient, code: string): Promise<any> {
  const { orders } = await admin.query(ORDER_QUERY, { code });
  return orders.items[0];
}
