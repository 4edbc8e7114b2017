#!/usr/bin/env bash
# walkthrough.sh's step 4 over HTTP: the admin's payment method through the Admin API (superadmin/superadmin, the
# login @vendure/create writes), a storefront's checkout through the Shop API, the payment through the sandbox's
# test helper (or on the hosted page: PAY_WITH=browser), the wait for the webhook, and the refund through the
# Admin API until it is Settled.
set -euo pipefail
VENDURE=${VENDURE:-http://localhost:3000}
: "${SANDBOX_BASE_URL:?}" "${SANDBOX_API_KEY:?}"
jar=$(mktemp -d)
# gql API TOKEN_FILE QUERY [VARIABLES]: posts one GraphQL operation, keeps the session's bearer token, prints the JSON
gql() {
  local body
  body=$(node -e 'console.log(JSON.stringify({ query: process.argv[1], variables: JSON.parse(process.argv[2] || "{}") }))' "$3" "${4:-}")
  local token=""
  [ -s "$jar/$2" ] && token=$(cat "$jar/$2")
  curl -s -D "$jar/headers" "$VENDURE/$1" -H 'Content-Type: application/json' \
    ${token:+-H "Authorization: Bearer $token"} -d "$body"
  local fresh
  fresh=$(grep -i '^vendure-auth-token:' "$jar/headers" | tr -d '\r' | cut -d' ' -f2 || true)
  [ -n "$fresh" ] && echo "$fresh" > "$jar/$2"
  return 0
}
field() { node -e 'const v = process.argv[1].split(".").reduce((o, k) => o?.[k], JSON.parse(require("fs").readFileSync(0))); console.log(typeof v === "object" ? JSON.stringify(v) : v)' "$1"; }

echo "== admin: log in and add the payment method"
gql admin-api admin 'mutation { login(username: "superadmin", password: "superadmin") { ... on CurrentUser { id } ... on ErrorResult { message } } }' | field data.login
gql admin-api admin 'mutation ($input: CreatePaymentMethodInput!) { createPaymentMethod(input: $input) { id code enabled handler { code } } }' \
  '{"input":{"code":"sandbox-payments","enabled":true,"handler":{"code":"sandbox-payments","arguments":[]},"translations":[{"languageCode":"en","name":"Sandbox Payments"}]}}' | field data.createPaymentMethod

echo "== shop: fill an order"
variant=$(gql shop-api shop '{ products(options: { take: 1 }) { items { variants { id } } } }' | field data.products.items.0.variants.0.id)
gql shop-api shop 'mutation ($id: ID!) { addItemToOrder(productVariantId: $id, quantity: 1) { ... on Order { code totalWithTax currencyCode } ... on ErrorResult { errorCode message } } }' "{\"id\":\"$variant\"}" | field data.addItemToOrder
gql shop-api shop 'mutation { setCustomerForOrder(input: { firstName: "Ada", lastName: "Lovelace", emailAddress: "ada+'"$RANDOM"'@example.com" }) { ... on Order { code } ... on ErrorResult { errorCode message } } }' | field data.setCustomerForOrder
address='{"a":{"fullName":"Ada Lovelace","streetLine1":"1 Main St","city":"Springfield","postalCode":"12345","countryCode":"US"}}'
gql shop-api shop 'mutation ($a: CreateAddressInput!) { setOrderShippingAddress(input: $a) { ... on Order { code } ... on ErrorResult { errorCode message } } }' "$address" | field data.setOrderShippingAddress
gql shop-api shop 'mutation ($a: CreateAddressInput!) { setOrderBillingAddress(input: $a) { ... on Order { code } ... on ErrorResult { errorCode message } } }' "$address" | field data.setOrderBillingAddress
shipping=$(gql shop-api shop '{ eligibleShippingMethods { id } }' | field data.eligibleShippingMethods.0.id)
gql shop-api shop 'mutation ($ids: [ID!]!) { setOrderShippingMethod(shippingMethodId: $ids) { ... on Order { code totalWithTax } ... on ErrorResult { errorCode message } } }' "{\"ids\":[\"$shipping\"]}" | field data.setOrderShippingMethod

echo "== shop: createSandboxPaymentsCheckout"
checkout=$(gql shop-api shop 'mutation { createSandboxPaymentsCheckout { id url } }')
echo "$checkout"
session=$(echo "$checkout" | field data.createSandboxPaymentsCheckout.id)
order=$(gql shop-api shop '{ activeOrder { code state totalWithTax } }')
echo "$order"
code=$(echo "$order" | field data.activeOrder.code)

url=$(echo "$checkout" | field data.createSandboxPaymentsCheckout.url)
if [ "${PAY_WITH:-helper}" = browser ]; then
  echo "== hosted page: pay $url with 4242 4242 4242 4242 (chromium)"
  node "$(dirname "$0")/walkthrough-pay.mjs" "$url"
else
echo "== sandbox: pay $session with 4242 4242 4242 4242 (test helper)"
curl -s "$SANDBOX_BASE_URL/v1/test-helpers/checkout-sessions/$session/pay" -H "Authorization: Bearer $SANDBOX_API_KEY" \
  -H 'Content-Type: application/json' -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d '{ "payment_method": "card", "card_number": "4242424242424242" }' | field status
fi

echo "== admin: wait for the webhook to settle order $code"
orderQuery='query ($code: String!) { orders(options: { filter: { code: { eq: $code } } }) { items { id state totalWithTax payments { id state amount transactionId refunds { id state total transactionId } } } } }'
for _ in $(seq 1 30); do
  found=$(gql admin-api admin "$orderQuery" "{\"code\":\"$code\"}" | field data.orders.items.0)
  [ "$(echo "$found" | field state)" = PaymentSettled ] && break
  sleep 1
done
echo "$found"
[ "$(echo "$found" | field state)" = PaymentSettled ] || { echo "the order did not become PaymentSettled"; exit 1; }
payment=$(echo "$found" | field payments.0.id)
total=$(echo "$found" | field totalWithTax)

echo "== admin: refund the whole order"
gql admin-api admin 'mutation ($input: RefundOrderInput!) { refundOrder(input: $input) { ... on Refund { id state total transactionId } ... on ErrorResult { errorCode message } } }' \
  "{\"input\":{\"paymentId\":\"$payment\",\"amount\":$total,\"shipping\":0,\"adjustment\":0,\"reason\":\"Walk-through refund\"}}" | field data.refundOrder
for _ in $(seq 1 30); do
  found=$(gql admin-api admin "$orderQuery" "{\"code\":\"$code\"}" | field data.orders.items.0)
  [ "$(echo "$found" | field payments.0.refunds.0.state)" = Settled ] && break
  sleep 1
done
echo "$found"
[ "$(echo "$found" | field payments.0.refunds.0.state)" = Settled ] || { echo "the refund did not settle"; exit 1; }
echo "== order $code: $(echo "$found" | field state), refund $(echo "$found" | field payments.0.refunds.0.state)"
