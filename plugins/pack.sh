#!/usr/bin/env bash
# Packs the plug-in in the folder given ($1) into an npm tarball written to the folder given as $2 (default: the
# plug-in's folder) and prints its path. A plug-in calls the API through this repository's client,
# @sandbox-payments/client, which its package.json links from ../../client for development; the tarball
# carries the client (and the client's own dependencies) in its node_modules, bundled, and names the client's
# version as the dependency, so it installs on its own today and beside a published client later.
set -euo pipefail
plugin="$(cd "$1" && pwd)"
destination="$(mkdir -p "${2:-$plugin}" && cd "${2:-$plugin}" && pwd)"
client="$(cd "$(dirname "$0")/../client" && pwd)"
stage="$(mktemp -d "${TMPDIR:-/tmp}/sandbox-payments-pack-XXXXXX")"
trap 'rm -rf "$stage"' EXIT
# the client's build, which the plug-in's build reads the types of, when it is not up to date (its prepack
# would always build again, under the feet of tests using it)
bash "$(dirname "$0")/build-client.sh"
client_tarball="$(cd "$client" && npm pack --silent --ignore-scripts --pack-destination "$stage" | tail -n 1)"
(cd "$plugin" && npm run --silent build)
cd "$stage"
echo "{ \"private\": true, \"dependencies\": { \"@sandbox-payments/client\": \"file:./$client_tarball\" } }" > package.json
npm install --no-audit --no-fund --prefer-offline --ignore-scripts --no-package-lock --loglevel error > /dev/null
rm package.json "$client_tarball"
cp -R "$plugin/dist" "$plugin/README.md" .
node -e '
  const fs = require("node:fs");
  const [manifest, client] = process.argv.slice(1).map((file) => JSON.parse(fs.readFileSync(file, "utf8")));
  manifest.dependencies["@sandbox-payments/client"] = client.version;
  fs.writeFileSync("package.json", JSON.stringify(manifest, null, 2) + "\n");
' "$plugin/package.json" "$client/package.json"
# the plug-in was built above: its prepack would build again in a folder without its sources
name="$(npm pack --silent --ignore-scripts --pack-destination "$destination" | tail -n 1)"
echo "$destination/$name"
