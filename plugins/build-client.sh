#!/usr/bin/env bash
# Builds the repository's client (../client), which the plug-ins call the API through, when its build is missing
# or older than its sources; a build that is up to date is left alone (another plug-in's tests may be using it).
set -euo pipefail
client="$(cd "$(dirname "$0")/../client" && pwd)"
built="$client/dist/cjs/index.js"
if [ ! -f "$built" ] || [ -n "$(find "$client/src" "$client/package.json" "$client"/tsconfig*.json -newer "$built" -print -quit)" ]; then
  (cd "$client" && npm run --silent build)
fi
