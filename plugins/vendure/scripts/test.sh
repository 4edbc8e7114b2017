#!/usr/bin/env bash
# The plug-in's tests as the repository's npm test runs them: installs this package's own dependencies
# (Vendure’s packages) when they are missing or older than package-lock.json, builds the repository's client
# when it is not up to date, type checks and builds the source (the tests load dist/), type checks the tests,
# then runs Vitest and writes its JSON report to the path given ($1) and the type check's beside it,
# which scripts/test-summary.mjs adds to the total. Needs the root's production build. With --install-only,
# installs and stops (the repository's npm test installs ahead, while its own checks and build run).
set -u
cd "$(dirname "$0")/.."
install_only=0
[ "${1:-}" = --install-only ] && install_only=1 && shift
report="${1:-}"
status=0
record() { [ -n "$report" ] && echo "$2" > "$1"; }
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  started=$(date +%s)
  if ! npm ci --no-audit --no-fund --loglevel error; then
    record "$report" '{"passed":0,"failed":1}'
    exit 1
  fi
  echo "installed the plug-in's dependencies in $(($(date +%s) - started)) s"
fi
[ "$install_only" -eq 1 ] && exit 0
# the plug-in calls the API through the repository's client, linked from ../../client: built first
if ! bash ../build-client.sh; then
  record "$report" '{"passed":0,"failed":1}'
  exit 1
fi
if npm run --silent typecheck; then
  record "${report%.json}-typecheck.json" '{"passed":1,"failed":0}'
else
  record "${report%.json}-typecheck.json" '{"passed":0,"failed":1}'
  status=1
fi
if [ -n "$report" ]; then
  npx vitest run --reporter=default --reporter=json --outputFile="$report" || status=1
else
  npx vitest run || status=1
fi
exit $status
