#!/usr/bin/env bash
# Installs the system packages dissect builds against, if they are missing.
# Debian/Ubuntu: libpcap-dev (libpcap headers and pkg-config file) and pkg-config.
# With --browser, also what the HTML view's browser tests need (make test-browser): headless
# Chromium, its WebDriver and Python's Selenium.
set -euo pipefail

packages=(libpcap-dev pkg-config)
if [ "${1:-}" = "--browser" ]; then packages+=(chromium chromium-driver python3-selenium); fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then
  sudo=""
elif command -v sudo >/dev/null; then
  sudo="sudo"
else
  echo "error: need root (or sudo) to install ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
