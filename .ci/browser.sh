#!/usr/bin/env bash
# Installs what the browser tests need on a fresh Debian machine (run as
# root): Debian's chromium and the Mermaid CLI (mmdc), the latter with npm
# into a directory outside the module. Progress goes to stderr; the last
# line on stdout is the path of mmdc, for RINGLAB_MMDC:
#
#   export RINGLAB_MMDC="$(bash .ci/browser.sh)"
#
# The Mermaid test (TestMermaidCLI in the top package) uses RINGLAB_MMDC
# and /usr/bin/chromium (or RINGLAB_CHROMIUM); other browser tests use the
# same chromium.
set -euo pipefail

tools="${RINGLAB_TOOLS:-${HOME:-/root}/.cache/ringlab-tools}"
mermaid_version=12.2.0

need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
	echo "browser.sh: apt-get install ${need[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	timeout 600 apt-get update -qq >&2
	timeout 1200 apt-get install -y -qq "${need[@]}" >&2
fi

mmdc="$tools/mermaid/node_modules/.bin/mmdc"
if [ ! -x "$mmdc" ] || ! "$mmdc" --version 2>/dev/null | grep -qx "$mermaid_version"; then
	echo "browser.sh: npm install @mermaid-js/mermaid-cli@$mermaid_version into $tools/mermaid" >&2
	mkdir -p "$tools/mermaid"
	# Debian's chromium serves as the browser: no download of puppeteer's own.
	(cd "$tools/mermaid" && PUPPETEER_SKIP_DOWNLOAD=1 timeout 900 npm install --no-audit --no-fund --loglevel=error \
		"@mermaid-js/mermaid-cli@$mermaid_version" >&2)
fi
"$mmdc" --version >&2
echo "$mmdc"
