#!/usr/bin/env bash
# Chromium for the browser test of internal/serve (ringlab serve): the test
# finds it at /usr/bin/chromium (or $RINGLAB_CHROMIUM) and skips without it.
# Run as root on a fresh Debian machine; does nothing if it is installed.
set -euo pipefail
if [ -x "${RINGLAB_CHROMIUM:-/usr/bin/chromium}" ]; then
	"${RINGLAB_CHROMIUM:-/usr/bin/chromium}" --version || true
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
timeout 600 apt-get update
timeout 1200 apt-get install -y --no-install-recommends chromium fonts-dejavu-core
/usr/bin/chromium --version
