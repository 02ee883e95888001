#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders inflight.svg to the PNG sizes the hicolor theme and AppStream want. The PNGs are
# committed (so building needs no SVG renderer); run this after changing the SVG.
# Needs rsvg-convert (librsvg2-bin).
set -eu
cd "$(dirname "$0")"
for s in 16 22 24 32 48 64 128 256 512; do
    rsvg-convert -w "$s" -h "$s" inflight.svg -o "inflight-$s.png"
done
