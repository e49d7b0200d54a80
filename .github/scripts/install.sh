#!/usr/bin/env bash
# Installs the gitctx release binary that matches the action's version into
# $RUNNER_TEMP/gitctx-bin, verified against the release's checksums.txt.
# INSTALL_MODE: binary (fail without a release), auto (fall back to a build
# from source, done by the next steps), build (skip the download).
set -euo pipefail

mode=${INSTALL_MODE:-auto}
ref=${ACTION_REF:-}
repo=${ACTION_REPOSITORY:-gitctx/gitctx}
out=$RUNNER_TEMP/gitctx-bin

give_up() {
  if [ "$mode" = binary ]; then
    echo "::error::gitctx: $1 (install-mode: binary); use install-mode: build or pin the action to a release tag"
    exit 1
  fi
  echo "gitctx: $1; building from source"
  echo "installed=false" >>"$GITHUB_OUTPUT"
  exit 0
}

case $mode in
  build) echo "installed=false" >>"$GITHUB_OUTPUT"; exit 0 ;;
  binary | auto) ;;
  *) echo "::error::gitctx: unknown install-mode '$mode' (use binary, build or auto)"; exit 1 ;;
esac
case $ref in
  v[0-9]*) ;;
  *) give_up "the action's version '${ref:-none}' is not a release tag" ;;
esac
case ${RUNNER_OS:-Linux} in
  Linux) os=linux ;; macOS) os=darwin ;; Windows) os=windows ;;
  *) give_up "no release for runner OS ${RUNNER_OS:-}" ;;
esac
case ${RUNNER_ARCH:-X64} in
  X64) arch=amd64 ;; ARM64) arch=arm64 ;;
  *) give_up "no release for runner architecture ${RUNNER_ARCH:-}" ;;
esac

archive="gitctx_${ref#v}_${os}_${arch}.tar.gz"
[ "$os" = windows ] && archive="gitctx_${ref#v}_${os}_${arch}.zip"
base="https://github.com/$repo/releases/download/$ref"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
curl -fsSL --retry 3 -o "$tmp/$archive" "$base/$archive" || give_up "no release archive $archive for $ref"
curl -fsSL --retry 3 -o "$tmp/checksums.txt" "$base/checksums.txt" || give_up "no checksums.txt for $ref"
(cd "$tmp" && grep -E " \*?$archive\$" checksums.txt | sha256sum -c --status -) || {
  echo "::error::gitctx: $archive does not match the release's checksums.txt"
  exit 1
}
mkdir -p "$out"
case $archive in
  *.zip) unzip -q -o "$tmp/$archive" -d "$tmp/x" && cp "$tmp/x/gitctx.exe" "$out/gitctx" ;;
  *) tar -xzf "$tmp/$archive" -C "$tmp" gitctx && cp "$tmp/gitctx" "$out/gitctx" ;;
esac
chmod +x "$out/gitctx"
echo "installed=true" >>"$GITHUB_OUTPUT"
