#!/usr/bin/env bash
# Run once by `synaps extensions install`, in the plugin directory: it
# "builds" the extension's binary, as a Rust or Go plugin's setup would.
set -euo pipefail
echo "setup: building bin/install-ext"
if [ -n "${INSTALL_FIXTURE_FAIL:-}" ]; then
  echo "setup: cannot build: $INSTALL_FIXTURE_FAIL" >&2
  exit 3
fi
mkdir -p bin
{ echo '#!/usr/bin/env python3'; cat ext.py; } > bin/install-ext
chmod +x bin/install-ext
echo "setup: done"
