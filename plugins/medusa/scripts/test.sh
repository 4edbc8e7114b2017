#!/usr/bin/env bash
# The plug-in's tests as the repository's npm test runs them: installs this package's own dependencies (Medusa's
# packages) when they are missing or older than package-lock.json, type checks the source and the tests, then runs Vitest and writes its JSON report
# to the path given ($1), which scripts/test-summary.mjs adds to the total. Needs the root's production build.
set -u
cd "$(dirname "$0")/.."
report="${1:-}"
fail() {
  [ -n "$report" ] && echo '{"passed":0,"failed":1}' > "$report"
  exit 1
}
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  started=$(date +%s)
  npm ci --no-audit --no-fund --loglevel error || fail
  echo "installed the plug-in's dependencies in $(($(date +%s) - started)) s"
fi
if npm run --silent typecheck; then typecheck='{"passed":1,"failed":0}'; else typecheck='{"passed":0,"failed":1}'; fi
[ -n "$report" ] && echo "$typecheck" > "${report%.json}-typecheck.json"
if [ -n "$report" ]; then
  npx vitest run --reporter=default --reporter=json --outputFile="$report"
else
  npx vitest run
fi
