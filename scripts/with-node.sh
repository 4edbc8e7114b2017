#!/usr/bin/env bash
# Runs a command on the Node.js major version .nvmrc names (NODE_MAJOR=22 picks another), fetching that
# Node from the npm registry (`npm exec node@<major>`, cached by npm) when the `node` on PATH is another
# major. Its directory goes first on PATH, so npm, npx and every process the command starts (next,
# vitest, tsx, Playwright's web server, children spawned with process.execPath) run on it.
#
#   bash scripts/with-node.sh npm test        # run a command on that Node
#   . scripts/with-node.sh                    # or put it first on this shell's PATH (.ci/run does)

with_node() {
  local root want have bin
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  want="${NODE_MAJOR:-$(tr -d ' \nv' < "$root/.nvmrc")}"
  want="${want%%.*}"
  have="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true)"
  if [ "$have" = "$want" ]; then return 0; fi
  echo "with-node: Node ${have:-(none)} on PATH, fetching Node $want from the npm registry" >&2
  bin="$(cd "${TMPDIR:-/tmp}" && npm exec --yes --package="node@$want" -- node -p 'require("node:path").dirname(process.execPath)' | tail -n 1)"
  if [ ! -x "$bin/node" ] || [ "$("$bin/node" -p 'process.versions.node.split(".")[0]')" != "$want" ]; then
    echo "with-node: could not get Node $want (npm exec node@$want)" >&2
    return 1
  fi
  export PATH="$bin:$PATH"
  hash -r
  echo "with-node: using Node $(node --version) from $bin" >&2
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  with_node
  if [ "$#" -gt 0 ]; then exec "$@"; fi
  node --version
else
  with_node
fi
