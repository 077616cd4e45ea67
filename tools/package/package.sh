#!/usr/bin/env bash
# Packs a release build of the game with its files the way players expect
# them on each system (docs/development.md#release-packages):
#
#   linux    forgotten-depths-VERSION-linux-x86_64.tar.gz   a tar keeps the execute bit
#   macos    forgotten-depths-VERSION-macos.zip             "Forgotten Depths.app": its icon,
#                                                           signed ad hoc, zipped by ditto
#   windows  forgotten-depths-VERSION-windows-x86_64.zip    the .exe carries its icon (build.rs)
#
# Usage: tools/package/package.sh linux|macos|windows BINARY OUT_DIR
# Prints the archive's path. The macOS steps need macOS (sips, iconutil,
# codesign, ditto); the others run anywhere with tar or zip (or 7z).
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 linux|macos|windows BINARY OUT_DIR" >&2
  exit 2
fi
system=$1
binary=$2
root="$(cd "$(dirname "$0")/../.." && pwd)"
mkdir -p "$3"
out="$(cd "$3" && pwd)"
test -f "$binary" || { echo "$0: no binary at $binary" >&2; exit 1; }
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/Cargo.toml" | head -n 1)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The game's files in DIR/assets: folders 755, files 644 (none of them runs).
copy_assets() {
  cp -R "$root/assets" "$1/assets"
  find "$1/assets" -type d -exec chmod 755 {} +
  find "$1/assets" -type f -exec chmod 644 {} +
}

# A zip of DIR's folder NAME as ARCHIVE, keeping Unix modes where the tool can.
zip_folder() {
  local dir=$1 name=$2 archive=$3
  rm -f "$archive"
  if command -v zip >/dev/null; then
    (cd "$dir" && zip -qr -X "$archive" "$name")
  elif command -v 7z >/dev/null; then
    (cd "$dir" && 7z a -tzip -bso0 "$archive" "$name")
  else
    echo "$0: neither zip nor 7z is installed" >&2
    exit 1
  fi
}

case $system in
  linux)
    dir="$stage/forgotten-depths"
    mkdir -p "$dir"
    install -m 755 "$binary" "$dir/forgotten-depths"
    copy_assets "$dir"
    install -m 644 "$root/packaging/README.txt" "$dir/README.txt"
    archive="$out/forgotten-depths-$version-linux-x86_64.tar.gz"
    tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$archive" forgotten-depths
    ;;
  macos)
    app="$stage/Forgotten Depths.app"
    mkdir -p "$app/Contents/MacOS" "$app/Contents/Resources"
    install -m 755 "$binary" "$app/Contents/MacOS/forgotten-depths"
    copy_assets "$app/Contents/Resources"
    iconset="$stage/AppIcon.iconset"
    mkdir -p "$iconset"
    for side in 16 32 128 256 512; do
      sips -z "$side" "$side" "$root/packaging/app-icon.png" --out "$iconset/icon_${side}x${side}.png" >/dev/null
      double=$((side * 2))
      if [ "$double" -le 512 ]; then
        sips -z "$double" "$double" "$root/packaging/app-icon.png" --out "$iconset/icon_${side}x${side}@2x.png" >/dev/null
      fi
    done
    iconutil -c icns -o "$app/Contents/Resources/AppIcon.icns" "$iconset"
    sed "s/@VERSION@/$version/g" "$root/packaging/Info.plist" > "$app/Contents/Info.plist"
    # Signed ad hoc: not notarized, so the first start needs a right-click →
    # Open (the README says how), but the system sees one whole, unaltered app.
    codesign --force --deep --sign - "$app"
    archive="$out/forgotten-depths-$version-macos.zip"
    rm -f "$archive"
    ditto -c -k --sequesterRsrc --keepParent "$app" "$archive"
    ;;
  windows)
    dir="$stage/forgotten-depths"
    mkdir -p "$dir"
    cp "$binary" "$dir/forgotten-depths.exe"
    copy_assets "$dir"
    cp "$root/packaging/README.txt" "$dir/README.txt"
    archive="$out/forgotten-depths-$version-windows-x86_64.zip"
    zip_folder "$stage" forgotten-depths "$archive"
    ;;
  *)
    echo "$0: the system is linux, macos or windows, not '$system'" >&2
    exit 2
    ;;
esac
echo "$archive"
