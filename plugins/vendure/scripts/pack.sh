#!/usr/bin/env bash
# Builds dist/ and writes the npm tarball, sandbox-payments-vendure-<version>.tgz, with the repository's client
# bundled in it (../../pack.sh says how), into the folder given (default: this package's folder). Prints the
# tarball's path.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bash ../pack.sh . "${1:-.}"
