#!/usr/bin/env bash
# Fake compiler: gcc for a compile (-c), but a link never finishes, as an -flto link, where the optimizers run, may not.
for a in "$@"; do case "$a" in -c) exec gcc "$@";; esac; done
exec sleep 1000
