#!/usr/bin/env bash
# Installs Debian's chromium for the dashboard browser test (tests/dashboard.test.ts drives /usr/bin/chromium
# through playwright-core, which downloads no browser). Idempotent: does nothing when chromium already runs.
set -uo pipefail

if [ -x /usr/bin/chromium ] && /usr/bin/chromium --headless --no-sandbox --disable-gpu --version >/dev/null 2>&1; then
  echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null)"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo -n"; else echo "chromium missing and not root (no sudo): skipping" >&2; exit 1; fi
fi

export DEBIAN_FRONTEND=noninteractive
# A stale package index is the usual reason the install fails; refresh only when the first try does.
$SUDO apt-get install -y chromium \
  || { $SUDO apt-get update && $SUDO apt-get install -y chromium; } \
  || { echo "apt-get could not install chromium" >&2; exit 1; }

/usr/bin/chromium --version
