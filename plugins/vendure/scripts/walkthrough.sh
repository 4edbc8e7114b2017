#!/usr/bin/env bash
# README's "Local walk-through", steps 1 to 4, run unattended against a real Vendure project (one made by
# `npx @vendure/create my-vendure-server --ci --use-npm --db sqlite`, which also populates it), with the
# sandbox in a new folder `sandbox` beside it. Not part of npm test: it needs the two tarballs and the project.
#
#   bash plugins/vendure/scripts/walkthrough.sh SERVER_TGZ PLUGIN_TGZ PROJECT_DIR
#
# SANDBOX_PORT (3100) and VENDURE_PORT (3000) move the two servers; PAY_WITH=browser pays on the hosted page
# with Chromium (Playwright from this repository's node_modules; CHROMIUM names the browser), else through
# the sandbox's test helper. The Admin API stands in for the admin's clicks. Both servers stop at the end.
set -euo pipefail
server_tgz="$(realpath "$1")"
plugin_tgz="$(realpath "$2")"
project="$(realpath "$3")"
here="$(cd "$(dirname "$0")" && pwd)"
sandbox_port="${SANDBOX_PORT:-3100}"
vendure_port="${VENDURE_PORT:-3000}"
VENDURE="http://localhost:$vendure_port"
sandbox_dir="$(dirname "$project")/sandbox"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -- "-$pid" 2> /dev/null || true; done
  sleep 2
  [ -f "$sandbox_dir/.sandbox-payments/postgres/postmaster.pid" ] &&
    kill "$(head -n 1 "$sandbox_dir/.sandbox-payments/postgres/postmaster.pid")" 2> /dev/null || true
}
trap cleanup EXIT
wait_for() { for _ in $(seq 1 120); do curl -s -o /dev/null "$1" && return 0; sleep 1; done; echo "$1 did not answer" >&2; return 1; }

echo "== 1. the sandbox in $sandbox_dir"
mkdir -p "$sandbox_dir" && cd "$sandbox_dir"
npm install --no-audit --no-fund --loglevel error "$server_tgz"
export SANDBOX_API_KEY=sk_sandbox_$(node -p "require('crypto').randomBytes(48).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 32)")
export SANDBOX_BASE_URL=http://localhost:$sandbox_port
setsid npx sandbox-payments start --port "$sandbox_port" > sandbox.log 2>&1 &
pids+=($!)

echo "== 2. approve localhost:4200"
npx sandbox-payments approve-website --host localhost:4200 \
  --merchant "$(npx sandbox-payments seed --json | node -p 'JSON.parse(require("fs").readFileSync(0)).merchant_id')"
wait_for "$SANDBOX_BASE_URL/"

echo "== 3. the webhook endpoint, and the project's .env"
export SANDBOX_WEBHOOK_SECRET=$(curl -s "$SANDBOX_BASE_URL/v1/webhook-endpoints" \
  -H "Authorization: Bearer $SANDBOX_API_KEY" -H "Content-Type: application/json" \
  -H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" \
  -d "{ \"url\": \"$VENDURE/sandbox-payments/webhooks\", \"events\": [\"*\"] }" |
  node -p 'JSON.parse(require("fs").readFileSync(0)).secret')
# one set of these lines, whatever an earlier run wrote
touch "$project/.env" && sed -i '/^SANDBOX_\(API_KEY\|BASE_URL\|WEBHOOK_SECRET\)=/d' "$project/.env"
printf 'SANDBOX_API_KEY=%s\nSANDBOX_BASE_URL=%s\nSANDBOX_WEBHOOK_SECRET=%s\n' \
  "$SANDBOX_API_KEY" "$SANDBOX_BASE_URL" "$SANDBOX_WEBHOOK_SECRET" >> "$project/.env"

echo "== 4. the plugin in $project, configured as README's Configure says"
cd "$project"
npm install --no-audit --no-fund --loglevel error "$plugin_tgz"
node - src/vendure-config.ts << 'JS'
const fs = require('node:fs');
const file = process.argv[2];
let source = fs.readFileSync(file, 'utf8');
if (!source.includes('SandboxPaymentsPlugin')) {
  source = `import { SandboxPaymentsPlugin } from '@sandbox-payments/vendure';\n${source}`.replace(
    /plugins: \[\n/,
    `plugins: [
        SandboxPaymentsPlugin.init({
            apiKey: process.env.SANDBOX_API_KEY!,
            baseUrl: process.env.SANDBOX_BASE_URL!,
            returnUrl: 'http://localhost:4200/checkout/confirmation',
            webhookSecret: process.env.SANDBOX_WEBHOOK_SECRET!,
            captureMethod: 'automatic',
        }),\n`,
  );
  fs.writeFileSync(file, source);
}
JS
PORT="$vendure_port" setsid npm run dev:server > vendure.log 2>&1 &
pids+=($!)
wait_for "$VENDURE/health"
VENDURE="$VENDURE" bash "$here/walkthrough-checkout.sh"
