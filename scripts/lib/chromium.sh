# shellcheck shell=bash
# Headless Chromium for the browser test of `w2c serve`: Debian's package, installed where
# missing (root + apt-get; needs apt_install from postgres.sh). Sourced by scripts/test.
#
#   find_test_chromium   sets W2C_TEST_CHROMIUM, or explains why not and returns 1

_chromium_path() {
  local name
  for name in chromium chromium-browser google-chrome; do
    if command -v "$name" >/dev/null 2>&1; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}

find_test_chromium() {
  local path
  if ! path=$(_chromium_path); then
    echo "== Chromium not found; installing Debian's chromium package"
    apt_install chromium fonts-dejavu-core || return 1
    path=$(_chromium_path) || { echo "chromium installed but not on PATH" >&2; return 1; }
  fi
  export W2C_TEST_CHROMIUM="$path"
  echo "== Chromium: $("$path" --version 2>/dev/null || echo "$path")"
}
