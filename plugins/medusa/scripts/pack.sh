#!/usr/bin/env bash
# Builds dist/ (prepack) and writes the npm tarball, sandbox-payments-medusa-<version>.tgz, into the folder
# given (default: this package's folder). Prints the tarball's path.
set -euo pipefail
cd "$(dirname "$0")/.."
destination="$(mkdir -p "${1:-.}" && cd "${1:-.}" && pwd)"
name="$(npm pack --silent --pack-destination "$destination" | tail -n 1)"
echo "$destination/$name"
