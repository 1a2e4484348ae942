#!/usr/bin/env bash
# Prints the bin directory of the newest Node.js <major> for this machine, unpacked from the npm registry's
# node-<os>-<arch> package (the official binary with its headers), the only download this needs. Cached under
# .node-versions/, so a second call is instant. Usage: PATH="$(scripts/node-from-registry.sh 24):$PATH" npm test
set -euo pipefail
major="${1:?usage: node-from-registry.sh <major version>}"
cd "$(dirname "$0")/.."
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch="$(uname -m)" ;; esac
dir=".node-versions/$major"
if [ ! -x "$dir/package/bin/node" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  tgz="$(cd "$dir" && npm pack --silent "node-$os-$arch@$major" 2>/dev/null | tail -n 1)"
  tar -xzf "$dir/$tgz" -C "$dir" && rm "$dir/$tgz"
fi
echo "$PWD/$dir/package/bin"
