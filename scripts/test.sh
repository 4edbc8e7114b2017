#!/usr/bin/env bash
# npm test: the production build; the Chromium scripts/chromium.ts finds or installs; Vitest's services and API
# files with the type check, lint (ESLint) and format (Prettier) beside them at low priority; Vitest's scale
# clusters and package with the plug-ins' tests (plugins/*) and Playwright's one story under next dev beside
# them at low priority; Playwright (against the built server) with the README's blocks beside it at low
# priority; and a check that no embedded PostgreSQL of data/ is left running. Ends with each step's duration,
# the total, and one line "N passed, N failed" totalling every suite.
set -u
cd "$(dirname "$0")/.."
reports=data/test-reports
rm -rf "$reports" && mkdir -p "$reports"
status=0

# each step's duration, printed as the next one starts and listed again at the end, with how busy the
# machine's cores were meanwhile (Linux: /proc/stat), which says whether a step is waiting or computing
durations=()
current='' current_started=0 current_cpu=''
cpu_ticks() { # "busy total" clock ticks of all cores since boot, or nothing off Linux
  [ -r /proc/stat ] || return 0
  awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print total - $5 - $6, total }' /proc/stat
}
finish_step() {
  [ -n "$current" ] || return 0
  local spent=$((SECONDS - current_started)) busy=''
  if [ -n "$current_cpu" ]; then
    busy="$(printf '%s %s\n' "$current_cpu" "$(cpu_ticks)" | awk '$4 > $2 { printf ", cores %d %% busy", 100 * ($3 - $1) / ($4 - $2) }')"
  fi
  durations+=("$(printf '%3d min %2d s  %s%s' $((spent / 60)) $((spent % 60)) "$current" "$busy")")
  printf '(%s: %d min %d s%s)\n' "$current" $((spent / 60)) $((spent % 60)) "$busy"
}
step() {
  finish_step
  current="$1" current_started=$SECONDS current_cpu="$(cpu_ticks)"
  printf '\n==> %s\n' "$1"
}

# package.json's engines: Node 22.12 or newer (Vitest 5 needs it). On an older Node, say how to run on 24.
if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)'; then
  echo "npm test needs Node.js 22.12 or newer (this is $(node --version)): run \`bash scripts/with-node.sh npm test\` to use Node 24 from the npm registry" >&2
  echo '0 passed, 1 failed'
  exit 1
fi
echo "Node $(node --version)"

# V8's compiled code of what Node loads (node_modules, next start's chunks, the CLI), kept for every process
# this run starts: each Vitest file, server and CLI after the first compiles less (Node's own cache; the
# services' files took 9 % less CPU with it)
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$PWD/data/node-compile-cache}"

# the plug-ins' own packages (Medusa's, Vendure's), when missing, install in the background at the lowest
# priority while the build and Vitest run, one plug-in after the other (both link ../client, whose packages
# npm installs too); the plug-in steps below wait for them and print what they said
(
  for plugin in medusa vendure; do
    nice -n 19 bash "plugins/$plugin/scripts/test.sh" --install-only > "$reports/plugin-$plugin-install.log" 2>&1
  done
) &
plugin_installs=$!
plugin_installed() {
  wait "$plugin_installs"
  cat "$reports/plugin-$1-install.log"
}

# Steps that run in the background, beside others: each one's output and duration under $reports, printed whole,
# in the order they started, by report_background.
background=() # "name pid" of each one started
in_background() { # name, command...
  local name="$1"
  shift
  (
    started=$SECONDS
    "$@" > "$reports/$name.log" 2>&1
    outcome=$?
    echo $((SECONDS - started)) > "$reports/$name.seconds"
    exit $outcome
  ) &
  background+=("$name $!")
}
report_background() { # waits for each one started, and prints it; one that failed fails the run
  local started name pid spent
  for started in ${background[@]+"${background[@]}"}; do
    read -r name pid <<< "$started"
    wait "$pid" || status=1
    spent=$(cat "$reports/$name.seconds")
    printf -- '--- %s (%d min %d s)\n' "$name" $((spent / 60)) $((spent % 60))
    cat "$reports/$name.log"
  done
  background=()
}
counted() { # name, command...: runs the command, and counts it in the closing line as one test passed or failed
  local name="$1"
  shift
  if "$@"; then echo '{"passed":1,"failed":0}' > "$reports/$name.json"; else echo '{"passed":0,"failed":1}' > "$reports/$name.json"; return 1; fi
}

# The type check, lint and format read the tree and write nothing, and each is one thread. They run side by
# side, in the background and at the lowest priority (nice 19), beside Vitest's services and API files, which
# alone leave the cores idle about a third of the time (waiting on their servers, their database and their
# timers): so they take only what Vitest leaves. They start after the build, which writes next-env.d.ts and the
# route types that the type check reads; should the build fail, they run at once, on their own.
start_checks() {
  in_background typecheck counted typecheck nice -n 19 npx tsc --noEmit
  in_background lint counted lint nice -n 19 npx eslint --max-warnings 0 .
  in_background format counted format nice -n 19 npx prettier --check --log-level warn .
}

step 'production build'
# One build for every step and for the runnable package: Next's standalone output (webpack) in .next-package,
# made as `npm pack` makes it (scripts/package.ts). `next start` serves it as it serves any build (NEXT_DIST_DIR
# names it to the suites, Playwright and the plug-ins), and the package test's `npm pack` packs it as it is
# (PACKAGE_STANDALONE_BUILT) instead of building it a second time.
export NEXT_DIST_DIR=.next-package
built=0
if npx tsx scripts/package.ts build > "$reports/build.log" 2>&1; then
  echo '{"passed":1,"failed":0}' > "$reports/build.json"; built=1
  export PACKAGE_STANDALONE_BUILT=1
else
  cat "$reports/build.log"; echo '{"passed":0,"failed":1}' > "$reports/build.json"; status=1
  step 'type check, lint and format'
  start_checks
  report_background
fi

if [ "$built" -eq 1 ]; then
  # resolved once (found, or installed when missing) for Playwright and every spec it runs
  browser=0
  if ls e2e/*.spec.ts >/dev/null 2>&1; then
    step 'browser'
    if CHROMIUM_PATH="$(npx tsx scripts/chromium.ts)"; then
      export CHROMIUM_PATH; browser=1
    else
      echo '{"passed":0,"failed":1}' > "$reports/browser.json"; status=1
    fi
  fi

  # the package's checks last, one at a time (vitest.config.mts): they time the runnable package's cold start,
  # and `npm pack` swaps the repository's package.json for the package's while it packs
  step 'vitest: services, the API and the package, with the type check, lint and format beside them'
  start_checks
  npx vitest run --project services --project api --project package --reporter=default --reporter=json --outputFile="$reports/vitest.json" || status=1
  report_background

  # The scale clusters keep the cores about half busy (they wait on their processes: a SIGTERM's grace, a
  # lease), and the plug-ins' suites and the story under next dev wait mostly on their platforms' start-up and
  # a dev server's compiling: so these run beside the clusters, at the lowest priority (nice 19), taking what the
  # clusters leave and never the time their measures depend on. Each plug-in installs its platform's packages
  # into its own node_modules (once) and tests against this build; the two have their own databases and free
  # ports, and the client they both call is built once, first.
  step "vitest: the scale clusters, with the plug-ins' suites and the story under next dev beside them"
  in_background vitest-scale npx vitest run --project scale --reporter=default --reporter=json --outputFile="$reports/vitest-scale.json"
  if [ "$browser" -eq 1 ]; then
    in_background dev-story env PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright-dev.json" \
      nice -n 19 npx playwright test -c playwright.dev.config.ts --reporter=list,json
  fi
  plugin_installed medusa
  plugin_installed vendure
  if nice -n 19 bash plugins/build-client.sh; then
    in_background medusa nice -n 19 bash plugins/medusa/scripts/test.sh "$PWD/$reports/plugin-medusa.json"
    in_background vendure nice -n 19 bash plugins/vendure/scripts/test.sh "$PWD/$reports/plugin-vendure.json"
  else
    echo '{"passed":0,"failed":1}' > "$reports/plugin-client.json"; status=1
  fi
  report_background

  # The README's blocks, as a reader pastes them (with none of this script's build settings), after the
  # plug-ins, which use the client/ the blocks build and clean: they start `npm run dev` in this tree and wait
  # mostly on its compiling and its start, so they run beside Playwright, at the lowest priority.
  step "playwright, with the README's blocks beside it"
  in_background readme env -u NEXT_DIST_DIR -u PACKAGE_STANDALONE_BUILT nice -n 19 npx vitest run -c vitest.readme.config.mts \
    --reporter=default --reporter=json --outputFile="$reports/vitest-readme.json"
  if [ "$browser" -eq 1 ]; then
    PLAYWRIGHT_JSON_OUTPUT_NAME="$reports/playwright.json" npx playwright test --reporter=list,json || status=1
  fi
  report_background
fi

# the plug-ins' installs, should no step above have waited for them
wait
step 'nothing left running'
if npx tsx scripts/stop-test-databases.ts --check; then echo '{"passed":1,"failed":0}' > "$reports/stopped.json"; else echo '{"passed":0,"failed":1}' > "$reports/stopped.json"; status=1; fi
finish_step
echo; printf '%s\n' "${durations[@]}"
printf 'took %d min %d s\n' $((SECONDS / 60)) $((SECONDS % 60))
node scripts/test-summary.mjs "$reports"
exit $status
